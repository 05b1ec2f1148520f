//! The guest list of `--authorized-keys`: the public keys that may log in,
//! each with the options written before it in OpenSSH's `authorized_keys`
//! format, enforced as OpenSSH enforces them. Entries are read by
//! `ssh-key`'s parser where it can ([`entry`] says where it cannot); what
//! each option means is this server's. The file is read as every
//! file the program reads is ([`tictactoe_game::files`]), through
//! [`read_small`].

use std::net::IpAddr;
use std::path::Path;
use std::time::{Duration, SystemTime};

use russh::keys::ssh_key::authorized_keys::Entry;
use russh::keys::ssh_key::public::KeyData;
use russh::keys::{Algorithm, PublicKey};

use super::ServeError;
use super::host_key::{FileProblem, read_small};

/// The largest authorized keys file read: thousands of keys.
const MAX_AUTHORIZED: u64 = 1024 * 1024;

/// Whether a key of this kind can log in to this server.
fn usable(algorithm: &Algorithm) -> bool {
    matches!(algorithm, Algorithm::Ed25519 | Algorithm::Ecdsa { .. })
}

/// One pattern of a `from=` list: an address with wildcards (`*`, `?`) or
/// a network in CIDR notation, negated with a leading `!`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    Glob {
        negated: bool,
        glob: String,
    },
    Network {
        negated: bool,
        network: IpAddr,
        bits: u8,
    },
}

impl Pattern {
    fn parse(text: &str) -> Result<Pattern, String> {
        let (negated, body) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if body.is_empty() {
            return Err("an empty pattern in from=".to_string());
        }
        if let Some((address, bits)) = body.split_once('/') {
            let network: IpAddr = address
                .parse()
                .map_err(|_| format!("from=: {body} is not a network (address/bits)"))?;
            let most = if network.is_ipv4() { 32 } else { 128 };
            let bits = bits
                .parse::<u8>()
                .ok()
                .filter(|&b| b <= most)
                .ok_or_else(|| format!("from=: {body} has no prefix length 0 to {most}"))?;
            return Ok(Pattern::Network {
                negated,
                network,
                bits,
            });
        }
        if !body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".:-*?_".contains(c))
        {
            return Err(format!("from=: {body} is no address pattern"));
        }
        Ok(Pattern::Glob {
            negated,
            glob: body.to_ascii_lowercase(),
        })
    }

    fn negated(&self) -> bool {
        match self {
            Pattern::Glob { negated, .. } | Pattern::Network { negated, .. } => *negated,
        }
    }

    fn matches(&self, address: IpAddr) -> bool {
        match self {
            Pattern::Glob { glob, .. } => {
                glob_match(glob.as_bytes(), address.to_string().as_bytes())
            }
            Pattern::Network { network, bits, .. } => in_network(address, *network, *bits),
        }
    }
}

/// OpenSSH's wildcard match: `*` any run of characters, `?` any one.
fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| glob_match(rest, &text[skip..])),
        Some((b'?', rest)) => !text.is_empty() && glob_match(rest, &text[1..]),
        Some((&c, rest)) => text.first() == Some(&c) && glob_match(rest, &text[1..]),
    }
}

fn in_network(address: IpAddr, network: IpAddr, bits: u8) -> bool {
    let prefix = |value: u128, width: u32| {
        let bits = u32::from(bits);
        if bits == 0 {
            0
        } else {
            value >> (width - bits)
        }
    };
    match (address, network) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            prefix(u32::from(a).into(), 32) == prefix(u32::from(n).into(), 32)
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => prefix(u128::from(a), 128) == prefix(u128::from(n), 128),
        _ => false,
    }
}

/// What a key's options allow, as OpenSSH reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Permits {
    /// `from=`: the client's address must match (empty: any address).
    from: Vec<Pattern>,
    /// `expiry-time=`: the key is refused from then on.
    expires: Option<SystemTime>,
    /// Why this key may log in but not play (`no-pty`, `restrict` without
    /// `pty`, `command=`), if it may not.
    no_game: Option<&'static str>,
}

impl Permits {
    /// Whether the key lets a client in from `address` at `now`.
    fn admits(&self, address: IpAddr, now: SystemTime) -> bool {
        let address = address.to_canonical();
        let expired = self.expires.is_some_and(|at| now >= at);
        let allowed = self.from.is_empty()
            || (!self.from.iter().any(|p| p.negated() && p.matches(address))
                && self.from.iter().any(|p| !p.negated() && p.matches(address)));
        allowed && !expired
    }

    /// Why a client with this key may not play, if it may not.
    pub(super) fn no_game(&self) -> Option<&'static str> {
        self.no_game
    }
}

/// One key of the guest list and what it may do.
#[derive(Debug, Clone)]
struct Guest {
    key: KeyData,
    permits: Permits,
}

/// The guest list of `--authorized-keys`.
#[derive(Debug, Clone, Default)]
pub(super) struct Guests {
    guests: Vec<Guest>,
}

impl Guests {
    /// What `key` may do when it comes from `address` now: `None` when it
    /// may not log in. Of several entries for the same key, the first that
    /// lets it in counts, as in OpenSSH.
    pub(super) fn admit(&self, key: &PublicKey, address: IpAddr) -> Option<&Permits> {
        let now = SystemTime::now();
        self.guests
            .iter()
            .filter(|guest| &guest.key == key.key_data())
            .map(|guest| &guest.permits)
            .find(|permits| permits.admits(address, now))
    }
}

/// A date as `expiry-time` writes it: YYYYMMDD, YYYYMMDDHHMM or
/// YYYYMMDDHHMMSS, read as UTC (OpenSSH reads the server's local time
/// unless the date ends in `Z`).
fn parse_expiry(text: &str) -> Option<SystemTime> {
    let digits = text.strip_suffix(['Z', 'z']).unwrap_or(text);
    if !matches!(digits.len(), 8 | 12 | 14) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let field = |range: std::ops::Range<usize>| {
        digits.get(range).map_or(Some(0), |s| s.parse::<u64>().ok())
    };
    let (year, month, day) = (field(0..4)?, field(4..6)?, field(6..8)?);
    let (hour, minute, second) = (field(8..10)?, field(10..12)?, field(12..14)?);
    if !(1970..=9999).contains(&year)
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    // Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y / 400;
    let year_of_era = y % 400;
    let day_of_year = (153 * m + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = (era * 146_097 + day_of_era).checked_sub(719_468)?;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
}

/// The value of a quoted option (`name="value"`).
fn quoted<'a>(option: &'a str, name: &str) -> Option<&'a str> {
    let value = option.get(name.len() + 1..)?;
    Some(
        value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value),
    )
}

/// Reads the options written before one key. Every option OpenSSH knows is
/// either enforced here or one this server meets by what it never does
/// (forwarding, running commands or `~/.ssh/rc`, setting the environment);
/// any other stops the start, named.
fn parse_options<'a>(options: impl Iterator<Item = &'a str>) -> Result<Permits, String> {
    let mut permits = Permits::default();
    let (mut restrict, mut pty, mut no_pty, mut command) = (false, false, false, false);
    for option in options {
        let name = option
            .split_once('=')
            .map_or(option, |(name, _)| name)
            .to_ascii_lowercase();
        match name.as_str() {
            "from" => {
                let list = quoted(option, &name).unwrap_or_default();
                for pattern in list.split(',') {
                    permits.from.push(Pattern::parse(pattern.trim())?);
                }
            }
            "expiry-time" => {
                let value = quoted(option, &name).unwrap_or_default();
                permits.expires = Some(parse_expiry(value).ok_or_else(|| {
                    format!("expiry-time=\"{value}\" is no date (YYYYMMDD[HHMM[SS]])")
                })?);
            }
            "restrict" => restrict = true,
            "pty" => pty = true,
            "no-pty" => no_pty = true,
            "command" => command = true,
            // Forwarding, agent, X11, user rc and environment: never granted
            // here, whatever the option says.
            "no-port-forwarding"
            | "no-agent-forwarding"
            | "no-x11-forwarding"
            | "no-user-rc"
            | "port-forwarding"
            | "agent-forwarding"
            | "x11-forwarding"
            | "user-rc"
            | "permitopen"
            | "permitlisten"
            | "environment"
            | "tunnel"
            | "no-touch-required" => {}
            _ => return Err(format!("the option {name} is not supported")),
        }
    }
    permits.no_game = if command {
        Some("this key may only run its command (command= in the authorized keys)")
    } else if no_pty || (restrict && !pty) {
        Some("this key may not open a terminal (no-pty or restrict in the authorized keys)")
    } else {
        None
    };
    Ok(permits)
}

/// An entry's options and its key. `ssh-key`'s parser reads most entries;
/// OpenSSH also reads two kinds it refuses, which are split here: a quoted
/// option holding a blank (`command="/usr/bin/foo --bar"`, `from="a, b"`),
/// and options before a key without a comment (`no-pty ssh-ed25519 AAAA...`).
fn entry(line: &str) -> Option<(Vec<String>, PublicKey)> {
    if let Ok(entry) = line.parse::<Entry>() {
        let options = entry.config_opts().iter().map(str::to_string).collect();
        return Some((options, entry.public_key().clone()));
    }
    let (options, key) = split_entry(line)?;
    let options = split_options(options).into_iter().map(str::to_string);
    Some((options.collect(), key))
}

/// An entry's options (empty when it has none) and its key, for the
/// entries `ssh-key` refuses: options up to the first blank outside
/// quotes, then a key.
fn split_entry(line: &str) -> Option<(&str, PublicKey)> {
    if let Ok(key) = PublicKey::from_openssh(line) {
        return Some(("", key));
    }
    let mut quoted = false;
    let end = line.char_indices().find_map(|(i, c)| {
        match c {
            '"' => quoted = !quoted,
            ' ' | '\t' if !quoted => return Some(i),
            _ => {}
        }
        None
    })?;
    let key = PublicKey::from_openssh(line[end..].trim()).ok()?;
    Some((&line[..end], key))
}

/// Options split at the commas outside quotes.
fn split_options(options: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut quoted, mut start) = (false, 0);
    for (i, c) in options.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&options[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < options.len() {
        parts.push(&options[start..]);
    }
    parts
}

/// What reading the guest list found besides the keys: lines for the log.
pub(super) type Warnings = Vec<String>;

/// The keys of an OpenSSH `authorized_keys` file, with their options.
/// Keys this server cannot check (RSA, DSA, security keys) are left out
/// with a warning; a file without a key it can use is refused.
pub(super) fn read_authorized(path: &Path) -> Result<(Guests, Warnings), ServeError> {
    let failed = |problem: FileProblem| ServeError::AuthorizedKeys {
        path: path.to_path_buf(),
        problem,
    };
    let content = |reason: String| failed(FileProblem::Content(reason));
    let text = read_small(path, MAX_AUTHORIZED, false).map_err(failed)?;
    let mut guests = Vec::new();
    let mut warnings = Vec::new();
    let mut unusable = 0;
    for (number, line) in text.lines().enumerate() {
        let line_number = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (options, key) =
            entry(line).ok_or_else(|| content(format!("line {line_number}: no public key")))?;
        let algorithm = key.algorithm();
        if !usable(&algorithm) {
            unusable += 1;
            warnings.push(format!(
                "--authorized-keys {}: line {line_number}: {algorithm} keys cannot log in here (ed25519 and ECDSA keys can); skipped",
                path.display()
            ));
            continue;
        }
        let permits = parse_options(options.iter().map(String::as_str))
            .map_err(|reason| content(format!("line {line_number}: {reason}")))?;
        guests.push(Guest {
            key: key.key_data().clone(),
            permits,
        });
    }
    if guests.is_empty() {
        return Err(content(if unusable > 0 {
            "no key that can log in here (ed25519 or ECDSA); nobody could".to_string()
        } else {
            "no public keys in it".to_string()
        }));
    }
    Ok((Guests { guests }, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use russh::keys::PrivateKey;

    #[test]
    fn from_patterns_match_as_openssh_reads_them() {
        let permits =
            |list: &str| parse_options([format!("from=\"{list}\"").as_str()].into_iter()).unwrap();
        let at = |text: &str| text.parse::<IpAddr>().unwrap();
        let now = SystemTime::now();
        assert!(permits("127.0.0.1").admits(at("127.0.0.1"), now));
        assert!(!permits("10.9.9.9").admits(at("127.0.0.1"), now));
        assert!(permits("10.*,127.0.0.?").admits(at("127.0.0.5"), now));
        assert!(!permits("10.*,127.0.0.?").admits(at("127.0.0.50"), now));
        assert!(permits("127.0.0.0/8").admits(at("127.200.1.1"), now));
        assert!(!permits("127.0.0.0/8,!127.0.0.2").admits(at("127.0.0.2"), now));
        assert!(permits("0.0.0.0/0").admits(at("192.0.2.1"), now));
        assert!(permits("::1").admits(at("::1"), now));
        assert!(permits("2001:db8::/32").admits(at("2001:db8::7"), now));
        // An IPv4 client on an IPv6 socket is matched as IPv4.
        assert!(permits("127.0.0.1").admits(at("::ffff:127.0.0.1"), now));
        assert!(parse_options(["from=\"10.0.0.0/33\""].into_iter()).is_err());
    }

    #[test]
    fn expiry_dates_are_read_as_utc() {
        let at = |s: u64| Some(SystemTime::UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(parse_expiry("19700101"), at(0));
        assert_eq!(parse_expiry("19700102"), at(86_400));
        assert_eq!(parse_expiry("20000301"), at(951_868_800));
        assert_eq!(parse_expiry("202401021530"), at(1_704_209_400));
        assert_eq!(parse_expiry("20240102153045Z"), at(1_704_209_445));
        for bad in ["2024", "20241301", "20240100", "2024010225", "abcdefgh"] {
            assert_eq!(parse_expiry(bad), None, "{bad}");
        }
    }

    #[test]
    fn keys_that_cannot_open_a_terminal_cannot_play() {
        let no_game = |options: &[&str]| parse_options(options.iter().copied()).unwrap().no_game;
        assert!(no_game(&[]).is_none());
        assert!(no_game(&["no-pty"]).is_some());
        assert!(no_game(&["restrict"]).is_some());
        assert!(no_game(&["restrict", "pty"]).is_none());
        assert!(no_game(&["command=\"/bin/false\""]).is_some());
        assert!(no_game(&["no-port-forwarding", "no-agent-forwarding"]).is_none());
        let refused = parse_options(["cert-authority"].into_iter()).unwrap_err();
        assert!(refused.contains("cert-authority"), "{refused}");
    }

    #[test]
    fn entries_are_read_by_ssh_key_and_those_it_refuses_here() {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let public = key.public_key().to_openssh().unwrap();
        // ssh-key reads options without blanks, before a key with a comment.
        let line = format!("from=\"10.0.0.1,10.0.0.2\",no-pty {public} a comment");
        assert!(line.parse::<Entry>().is_ok());
        let (options, found) = entry(&line).unwrap();
        assert_eq!(found.key_data(), key.public_key().key_data());
        assert_eq!(options, ["from=\"10.0.0.1,10.0.0.2\"", "no-pty"]);
        // OpenSSH reads a quoted blank, and options before a bare key; ssh-key does not.
        let quoted = format!("from=\"10.0.0.1,10.0.0.2\",command=\"echo hi, there\" {public} x");
        let bare = format!("no-pty {public}");
        for refused in [&quoted, &bare] {
            assert!(refused.parse::<Entry>().is_err(), "{refused}");
        }
        let (options, found) = entry(&quoted).unwrap();
        assert_eq!(found.key_data(), key.public_key().key_data());
        assert_eq!(
            options,
            ["from=\"10.0.0.1,10.0.0.2\"", "command=\"echo hi, there\""]
        );
        let permits = parse_options(options.iter().map(String::as_str)).unwrap();
        assert!(permits.no_game.is_some());
        let now = SystemTime::now();
        assert!(permits.admits("10.0.0.2".parse().unwrap(), now));
        assert!(!permits.admits("10.0.0.3".parse().unwrap(), now));
        assert_eq!(entry(&bare).unwrap().0, ["no-pty"]);
        assert!(entry(&public).unwrap().0.is_empty());
    }
}
