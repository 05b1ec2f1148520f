//! Who gets a place on the server. Two pools, kept apart so that sockets
//! cannot take places meant for people:
//!
//! - **logins**: connections from their first byte until they open the game
//!   (key exchange, authentication, the terminal and shell requests). At
//!   most `--max-per-address` from one address and `--max-sessions` in all;
//!   when either is full a new connection pushes out the oldest login of the
//!   address that has the most, so silent sockets cannot keep anyone out.
//! - **players**: connections with the game open, at most `--max-sessions`
//!   and `--max-per-address` from one address. A place is taken when the
//!   shell is asked for, after authentication.
//!
//! New connections from one address are also rate limited by a token
//! bucket: twice `--max-per-address` at once, then `--max-per-address` a
//! minute. IPv6 addresses count by their /64 network, which one machine
//! usually holds whole.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

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

/// Why a connection is turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// `--max-sessions` players are here.
    Full,
    /// `--max-per-address` players from this address.
    Address,
    /// Too many new connections from this address lately.
    Rate,
}

impl Refusal {
    /// For the log.
    pub(super) fn reason(self) -> &'static str {
        match self {
            Refusal::Full => "server full",
            Refusal::Address => "too many from one address",
            Refusal::Rate => "too many new connections from one address",
        }
    }

    /// For the client.
    pub(super) fn message(self, limits: &Limits) -> String {
        match self {
            Refusal::Full => format!(
                "the server is full ({} players); try again later",
                limits.max_sessions
            ),
            Refusal::Address => format!(
                "too many players from your address ({}); close one and try again",
                limits.max_per_address
            ),
            Refusal::Rate => format!(
                "too many new connections from your address (more than {} a minute); try again in a minute",
                limits.max_per_address
            ),
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
    /// refused for its address's rate. A login pushed out to make room is
    /// told through its phase ([`Phase::Kill`]).
    pub(super) fn arrive(
        self: &Arc<Self>,
        address: IpAddr,
        phase: &Arc<watch::Sender<Phase>>,
        now: Instant,
    ) -> Result<LoginTicket, Refusal> {
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
            pools.push_out(Some(key));
        }
        if pools.logins.len() >= self.limits.max_sessions {
            pools.push_out(None);
        }
        pools.next_login += 1;
        let id = pools.next_login;
        pools.logins.insert(
            id,
            Login {
                address: key,
                phase: Arc::clone(phase),
            },
        );
        *pools.logins_by_address.entry(key).or_default() += 1;
        Ok(LoginTicket {
            admission: Arc::clone(self),
            id: Some(id),
        })
    }

    /// A player's place, once logged in and asking for the game.
    pub(super) fn seat(self: &Arc<Self>, address: IpAddr) -> Result<Seat, Refusal> {
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
        Ok(Seat {
            admission: Arc::clone(self),
            address: key,
        })
    }
}

impl Pools {
    /// Pushes out the oldest login of `address`, or with `None` of the
    /// address with the most logins.
    fn push_out(&mut self, address: Option<IpAddr>) {
        let address = address.or_else(|| {
            let most = self.logins_by_address.values().copied().max()?;
            // Of the addresses with the most, the one whose login is oldest.
            self.logins
                .values()
                .find(|login| self.logins_by_address.get(&login.address) == Some(&most))
                .map(|login| login.address)
        });
        let Some(address) = address else { return };
        let Some(id) = self
            .logins
            .iter()
            .find(|(_, login)| login.address == address)
            .map(|(&id, _)| id)
        else {
            return;
        };
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
pub(super) struct LoginTicket {
    admission: Arc<Admission>,
    id: Option<u64>,
}

impl LoginTicket {
    /// The connection is no longer logging in.
    pub(super) fn leave(&mut self) {
        let Some(id) = self.id.take() else { return };
        let mut pools = self.admission.pools();
        if let Some(login) = pools.logins.remove(&id) {
            decrement(&mut pools.logins_by_address, login.address);
        }
    }
}

impl Drop for LoginTicket {
    fn drop(&mut self) {
        self.leave();
    }
}

/// A player's place, given back when the game closes.
pub(super) struct Seat {
    admission: Arc<Admission>,
    address: IpAddr,
}

impl Drop for Seat {
    fn drop(&mut self) {
        let mut pools = self.admission.pools();
        pools.players -= 1;
        decrement(&mut pools.players_by_address, self.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase() -> Arc<watch::Sender<Phase>> {
        Arc::new(watch::channel(Phase::Handshake).0)
    }

    #[test]
    fn a_full_address_gives_way_to_its_newest_login() {
        let admission = Arc::new(Admission::new(Limits {
            max_sessions: 100,
            max_per_address: 2,
        }));
        let at: IpAddr = "10.0.0.1".parse().unwrap();
        let now = Instant::now();
        let (first, second, third) = (phase(), phase(), phase());
        let _a = admission.arrive(at, &first, now).unwrap();
        let _b = admission.arrive(at, &second, now).unwrap();
        let _c = admission.arrive(at, &third, now).unwrap();
        assert_eq!(*first.borrow(), Phase::PushedOut);
        assert_eq!(*second.borrow(), Phase::Handshake);
        assert_eq!(*third.borrow(), Phase::Handshake);
        // Four at once is the burst: the fifth is refused for the rate.
        let _d = admission.arrive(at, &phase(), now).unwrap();
        assert_eq!(
            admission.arrive(at, &phase(), now).err(),
            Some(Refusal::Rate)
        );
    }

    #[test]
    fn a_full_pool_pushes_out_the_address_with_the_most() {
        let admission = Arc::new(Admission::new(Limits {
            max_sessions: 3,
            max_per_address: 10,
        }));
        let now = Instant::now();
        let crowd: IpAddr = "10.0.0.1".parse().unwrap();
        let lone: IpAddr = "10.0.0.2".parse().unwrap();
        let alone = phase();
        let _l = admission.arrive(lone, &alone, now).unwrap();
        let phases: Vec<_> = (0..2).map(|_| phase()).collect();
        let _tickets: Vec<_> = phases
            .iter()
            .map(|p| admission.arrive(crowd, p, now).unwrap())
            .collect();
        let _new = admission
            .arrive("10.0.0.3".parse().unwrap(), &phase(), now)
            .unwrap();
        assert_eq!(*phases[0].borrow(), Phase::PushedOut);
        assert_eq!(*alone.borrow(), Phase::Handshake);
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
