//! Who gets a place on the server. Two pools, kept apart so that sockets
//! cannot take places meant for people:
//!
//! - **logins**: connections from their first byte until they open the game
//!   (key exchange, authentication, the terminal and shell requests). At
//!   most `--max-per-address` from one address and `--max-sessions` in all.
//!   When either is full, a new connection takes the place of the login
//!   that has done least (see [`Progress`]): first a stalled one (one that
//!   sent nothing for [`STALL`], or in authentication for
//!   [`STALL_IN_AUTHENTICATION`]), then one that has not sent its version
//!   line yet, the oldest first; within each, an address with several
//!   logins gives one up before an address's only login. A login making
//!   progress (its version line sent, and bytes since, within those times)
//!   is never pushed out: when every login makes progress, the new
//!   connection is refused instead. So neither silent sockets nor a churn of
//!   them can keep out a person who logs in, however slowly.
//! - **players**: connections with the game open, at most `--max-sessions`
//!   and `--max-per-address` from one address. A place is taken when the
//!   shell is asked for, after authentication.
//!
//! New connections from one address are also rate limited by a token
//! bucket: twice `--max-per-address` at once, then `--max-per-address` a
//! minute. IPv6 addresses count by their /64 network, which one machine
//! usually holds whole.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::watch;

use super::Phase;
use super::limit::Bucket;

/// Addresses whose rate is remembered; past this, buckets that are full
/// again are forgotten first.
const MAX_TRACKED: usize = 16_384;

/// The address a connection counts under: IPv4 as it is, IPv6 by its /64.
pub(super) fn address_key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(network))
        }
        v4 => v4,
    }
}

/// A login that has sent nothing for this long (since its last bytes, or
/// since it connected) is stalled: a real client answers the server's
/// messages within a round trip, and a slow link's round trip is a second
/// or two.
pub(super) const STALL: Duration = Duration::from_secs(5);

/// A login in authentication that has sent nothing for this long is
/// stalled: its client may be asking a person for a key's passphrase.
pub(super) const STALL_IN_AUTHENTICATION: Duration = Duration::from_secs(10);

/// The clock of [`Progress`]: milliseconds since the first login.
static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

fn millis(at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(*EPOCH).as_millis()).unwrap_or(u64::MAX)
}

/// How far a login has come, as the server sees it: its socket says when
/// bytes came and whether the version line was among them
/// ([`Watched`]), its handler when authentication began.
#[derive(Debug)]
pub(super) struct Progress {
    /// When the last bytes came (or the connection, before any), in [`millis`].
    last: AtomicU64,
    /// The client's version line has come.
    version: AtomicBool,
    /// The key exchange is done and authentication has begun.
    authenticating: AtomicBool,
}

impl Progress {
    /// A connection that came at `now`.
    pub(super) fn new(now: Instant) -> Progress {
        Progress {
            last: AtomicU64::new(millis(now)),
            version: AtomicBool::new(false),
            authenticating: AtomicBool::new(false),
        }
    }

    /// Bytes came from the client.
    fn received(&self, bytes: &[u8], now: Instant) {
        self.last.store(millis(now), Ordering::Relaxed);
        if !self.version.load(Ordering::Relaxed) && bytes.contains(&b'\n') {
            self.version.store(true, Ordering::Relaxed);
        }
    }

    /// The key exchange is done: the client asked to authenticate.
    pub(super) fn authenticating(&self) {
        self.authenticating.store(true, Ordering::Relaxed);
    }

    /// How little the login has done, lowest first, when it may be pushed
    /// out: 0 stalled, 1 silent (no version line yet); `None` while it
    /// makes progress.
    fn standing(&self, now: Instant) -> Option<u8> {
        let last = self.last.load(Ordering::Relaxed);
        let quiet = Duration::from_millis(millis(now).saturating_sub(last));
        let patience = if self.authenticating.load(Ordering::Relaxed) {
            STALL_IN_AUTHENTICATION
        } else {
            STALL
        };
        if quiet >= patience {
            Some(0)
        } else if !self.version.load(Ordering::Relaxed) {
            Some(1)
        } else {
            None
        }
    }
}

/// A login's socket, telling its [`Progress`] what it reads.
pub(super) struct Watched<S> {
    inner: S,
    progress: Arc<Progress>,
}

impl<S> Watched<S> {
    pub(super) fn new(inner: S, progress: Arc<Progress>) -> Watched<S> {
        Watched { inner, progress }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled
            && buf.filled().len() > before
        {
            self.progress
                .received(&buf.filled()[before..], Instant::now());
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, bytes)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Why a connection is turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// `--max-sessions` players are here.
    Full,
    /// `--max-per-address` players from this address.
    Address,
    /// Too many new connections from this address lately.
    Rate,
    /// `--max-sessions` logins, every one making progress.
    Busy,
    /// `--max-per-address` logins from this address, every one making progress.
    BusyHere,
}

impl Refusal {
    /// For the log.
    pub(super) fn reason(self) -> &'static str {
        match self {
            Refusal::Full => "server full",
            Refusal::Address => "too many from one address",
            Refusal::Rate => "too many new connections from one address",
            Refusal::Busy => "every login place taken by a login making progress",
            Refusal::BusyHere => {
                "every login place of its address taken by a login making progress"
            }
        }
    }

    /// For the client.
    pub(super) fn message(self, limits: &Limits) -> String {
        let (all, here) = (limits.max_sessions, limits.max_per_address);
        match self {
            Refusal::Full => format!("the server is full ({all} players); try again later"),
            Refusal::Address => {
                format!("too many players from your address ({here}); close one and try again")
            }
            Refusal::Rate => format!(
                "too many new connections from your address (more than {here} a minute); try again in a minute"
            ),
            Refusal::Busy => format!("{all} connections are logging in; try again in a moment"),
            Refusal::BusyHere => {
                format!(
                    "{here} connections from your address are logging in; try again in a moment"
                )
            }
        }
    }
}

/// The numbers the pools are sized by.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub max_sessions: usize,
    pub max_per_address: usize,
}

struct Login {
    address: IpAddr,
    phase: Arc<watch::Sender<Phase>>,
    progress: Arc<Progress>,
}

#[derive(Default)]
struct Pools {
    next_login: u64,
    /// Connections logging in, oldest first.
    logins: BTreeMap<u64, Login>,
    logins_by_address: HashMap<IpAddr, usize>,
    players: usize,
    players_by_address: HashMap<IpAddr, usize>,
    rates: HashMap<IpAddr, Bucket>,
}

/// Both pools and the rates.
pub(super) struct Admission {
    limits: Limits,
    pools: Mutex<Pools>,
}

fn decrement(map: &mut HashMap<IpAddr, usize>, address: IpAddr) {
    if let Some(n) = map.get_mut(&address) {
        *n -= 1;
        if *n == 0 {
            map.remove(&address);
        }
    }
}

impl Admission {
    pub(super) fn new(limits: Limits) -> Admission {
        Admission {
            limits,
            pools: Mutex::default(),
        }
    }

    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    fn pools(&self) -> MutexGuard<'_, Pools> {
        self.pools.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new connection from `address`: its place among the logins, or
    /// refused for its address's rate, or because every login it could
    /// take the place of makes progress. A login pushed out to make room is
    /// told through its phase ([`Phase::PushedOut`]).
    pub(super) fn arrive(
        self: &Arc<Self>,
        address: IpAddr,
        phase: &Arc<watch::Sender<Phase>>,
        progress: &Arc<Progress>,
        now: Instant,
    ) -> Result<LoginSlot, Refusal> {
        let key = address_key(address);
        let per_address = self.limits.max_per_address;
        let mut guard = self.pools();
        let pools = &mut *guard;
        if pools.rates.len() >= MAX_TRACKED {
            pools.rates.retain(|_, bucket| !bucket.is_full(now));
        }
        let burst = u32::try_from(per_address * 2).unwrap_or(u32::MAX);
        let per_second = per_address as f64 / 60.0;
        let taken = match pools.rates.get_mut(&key) {
            Some(bucket) => bucket.take(now),
            None => {
                let mut bucket = Bucket::new(burst, per_second, now);
                let taken = bucket.take(now);
                if pools.rates.len() < MAX_TRACKED {
                    pools.rates.insert(key, bucket);
                }
                taken
            }
        };
        if !taken {
            return Err(Refusal::Rate);
        }
        // Room first: within the address's share, then within the whole pool.
        let mine = pools.logins_by_address.get(&key).copied().unwrap_or(0);
        if mine >= per_address {
            let victim = pools.victim(Some(key), now).ok_or(Refusal::BusyHere)?;
            pools.push_out(victim);
        }
        if pools.logins.len() >= self.limits.max_sessions {
            let victim = pools.victim(None, now).ok_or(Refusal::Busy)?;
            pools.push_out(victim);
        }
        pools.next_login += 1;
        let id = pools.next_login;
        pools.logins.insert(
            id,
            Login {
                address: key,
                phase: Arc::clone(phase),
                progress: Arc::clone(progress),
            },
        );
        *pools.logins_by_address.entry(key).or_default() += 1;
        Ok(LoginSlot {
            admission: Arc::clone(self),
            id: Some(id),
        })
    }

    /// A player's place, once logged in and asking for the game.
    pub(super) fn player_slot(self: &Arc<Self>, address: IpAddr) -> Result<PlayerSlot, Refusal> {
        let key = address_key(address);
        let mut pools = self.pools();
        if pools.players_by_address.get(&key).copied().unwrap_or(0) >= self.limits.max_per_address {
            return Err(Refusal::Address);
        }
        if pools.players >= self.limits.max_sessions {
            return Err(Refusal::Full);
        }
        pools.players += 1;
        *pools.players_by_address.entry(key).or_default() += 1;
        Ok(PlayerSlot {
            admission: Arc::clone(self),
            address: key,
        })
    }
}

impl Pools {
    /// The login a newcomer takes the place of, among those of `address`
    /// (or all): the one that has done least ([`Progress::standing`]), of an
    /// address with several logins before an address's only one, the
    /// oldest first; `None` when every one makes progress.
    fn victim(&self, address: Option<IpAddr>, now: Instant) -> Option<u64> {
        self.logins
            .iter()
            .filter(|(_, login)| address.is_none_or(|address| login.address == address))
            .filter_map(|(&id, login)| {
                let standing = login.progress.standing(now)?;
                let alone = self.logins_by_address.get(&login.address) == Some(&1);
                Some((standing, alone, id))
            })
            .min()
            .map(|(_, _, id)| id)
    }

    /// Pushes out the login `id`, telling it through its phase.
    fn push_out(&mut self, id: u64) {
        if let Some(login) = self.logins.remove(&id) {
            decrement(&mut self.logins_by_address, login.address);
            login.phase.send_if_modified(|phase| {
                let logging_in = *phase == Phase::Handshake;
                if logging_in {
                    *phase = Phase::PushedOut;
                }
                logging_in
            });
        }
    }
}

/// A connection's place among the logins, given back when it opens the
/// game or closes (or was pushed out already).
pub(super) struct LoginSlot {
    admission: Arc<Admission>,
    id: Option<u64>,
}

impl LoginSlot {
    /// The connection is no longer logging in.
    pub(super) fn leave(&mut self) {
        let Some(id) = self.id.take() else { return };
        let mut pools = self.admission.pools();
        if let Some(login) = pools.logins.remove(&id) {
            decrement(&mut pools.logins_by_address, login.address);
        }
    }
}

impl Drop for LoginSlot {
    fn drop(&mut self) {
        self.leave();
    }
}

/// A player's place, given back when the game closes.
pub(super) struct PlayerSlot {
    admission: Arc<Admission>,
    address: IpAddr,
}

impl Drop for PlayerSlot {
    fn drop(&mut self) {
        let mut pools = self.admission.pools();
        pools.players -= 1;
        decrement(&mut pools.players_by_address, self.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admission for `max_sessions` players, `max_per_address` from one address.
    fn limited(max_sessions: usize, max_per_address: usize) -> Arc<Admission> {
        Arc::new(Admission::new(Limits {
            max_sessions,
            max_per_address,
        }))
    }

    fn phase() -> Arc<watch::Sender<Phase>> {
        Arc::new(watch::channel(Phase::Handshake).0)
    }

    fn silent_since(at: Instant) -> Arc<Progress> {
        Arc::new(Progress::new(at))
    }

    fn silent() -> Arc<Progress> {
        silent_since(Instant::now())
    }

    /// A login that sent its version line at `at` (and, with
    /// `authenticating`, has begun to authenticate).
    fn spoke(at: Instant, authenticating: bool) -> Arc<Progress> {
        let progress = Arc::new(Progress::new(at));
        progress.received(b"SSH-2.0-OpenSSH_9.6\r\n", at);
        if authenticating {
            progress.authenticating();
        }
        progress
    }

    #[test]
    fn a_full_address_gives_way_to_its_newest_login() {
        let admission = limited(100, 2);
        let at: IpAddr = "10.0.0.1".parse().unwrap();
        let now = Instant::now();
        let (first, second, third) = (phase(), phase(), phase());
        let _a = admission.arrive(at, &first, &silent(), now).unwrap();
        let _b = admission.arrive(at, &second, &silent(), now).unwrap();
        let _c = admission.arrive(at, &third, &silent(), now).unwrap();
        assert_eq!(*first.borrow(), Phase::PushedOut);
        assert_eq!(*second.borrow(), Phase::Handshake);
        assert_eq!(*third.borrow(), Phase::Handshake);
        // Four at once is the burst: the fifth is refused for the rate.
        let _d = admission.arrive(at, &phase(), &silent(), now).unwrap();
        assert_eq!(
            admission.arrive(at, &phase(), &silent(), now).err(),
            Some(Refusal::Rate)
        );
    }

    #[test]
    fn a_full_pool_pushes_out_the_address_with_the_most() {
        let admission = limited(3, 10);
        let now = Instant::now();
        let crowd: IpAddr = "10.0.0.1".parse().unwrap();
        let lone: IpAddr = "10.0.0.2".parse().unwrap();
        let alone = phase();
        let _l = admission.arrive(lone, &alone, &silent(), now).unwrap();
        let phases: Vec<_> = (0..2).map(|_| phase()).collect();
        let _tickets: Vec<_> = phases
            .iter()
            .map(|p| admission.arrive(crowd, p, &silent(), now).unwrap())
            .collect();
        let _new = admission
            .arrive("10.0.0.3".parse().unwrap(), &phase(), &silent(), now)
            .unwrap();
        assert_eq!(*phases[0].borrow(), Phase::PushedOut);
        assert_eq!(*alone.borrow(), Phase::Handshake);
    }

    #[test]
    fn logins_making_progress_are_never_pushed_out_and_stalled_ones_go_first() {
        let admission = limited(3, 10);
        let start = Instant::now();
        let address = |n: u8| IpAddr::from([10, 0, 1, n]);
        // The oldest logins: one in authentication, one in the key exchange.
        let (authenticating, exchanging) = (phase(), phase());
        let _a = admission
            .arrive(address(1), &authenticating, &spoke(start, true), start)
            .unwrap();
        let _b = admission
            .arrive(address(2), &exchanging, &spoke(start, false), start)
            .unwrap();
        // A churn of silent sockets, 200 a second, only ever pushes out its own.
        let mut churn = Vec::new();
        for n in 0..100u8 {
            let at = start + Duration::from_millis(u64::from(n) * 5);
            let silent_one = phase();
            let ticket = admission
                .arrive(address(100 + n), &silent_one, &silent_since(at), at)
                .unwrap();
            churn.push((ticket, silent_one));
        }
        assert_eq!(*authenticating.borrow(), Phase::Handshake);
        assert_eq!(*exchanging.borrow(), Phase::Handshake);
        let pushed = churn
            .iter()
            .filter(|(_, phase)| *phase.borrow() == Phase::PushedOut)
            .count();
        assert_eq!(pushed, 99, "all but the newest silent one");
        // Past the stall, the key exchange that sent nothing since is pushed
        // out first, before the silent one; authentication has longer.
        let later = start + STALL;
        let _c = admission
            .arrive(address(201), &phase(), &silent_since(later), later)
            .unwrap();
        assert_eq!(*exchanging.borrow(), Phase::PushedOut);
        assert_eq!(*authenticating.borrow(), Phase::Handshake);
        // Every login making progress: the newcomer is refused instead.
        let full = limited(2, 10);
        let (one, two) = (phase(), phase());
        let _e = full
            .arrive(address(1), &one, &spoke(start, true), start)
            .unwrap();
        let _f = full
            .arrive(address(2), &two, &spoke(start, false), start)
            .unwrap();
        assert_eq!(
            full.arrive(address(3), &phase(), &silent_since(start), start)
                .err(),
            Some(Refusal::Busy)
        );
        assert_eq!(*one.borrow(), Phase::Handshake);
        assert_eq!(*two.borrow(), Phase::Handshake);
    }

    #[test]
    fn ipv6_counts_by_its_network() {
        let a = address_key("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = address_key("2001:db8:1:2:bbbb::2".parse().unwrap());
        assert_eq!(a, b);
        assert_eq!(
            address_key("::ffff:10.1.2.3".parse().unwrap()),
            "10.1.2.3".parse::<IpAddr>().unwrap()
        );
    }
}
