//! Chess clocks for games between people: a time control (`3+2`: three
//! minutes each, two seconds added after every move) and the two clocks it
//! runs. Pure: the caller says what time it is. The SSH server keeps the
//! clocks that count; the screen draws a copy.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use tictactoe_engine::Player;

/// The longest base time a control may have: a day.
const MAX_BASE: Duration = Duration::from_secs(24 * 60 * 60);
/// The largest increment: an hour a move.
const MAX_INCREMENT: Duration = Duration::from_secs(60 * 60);

/// Minutes each and seconds added per move, as `3+2` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: Duration,
    /// Added to a side's clock after each of its moves.
    pub increment: Duration,
}

/// Why a time control could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a time control is minutes+seconds, such as 3+2 (at most 1440+3600, not 0+0): {0:?}")]
pub struct BadTimeControl(pub String);

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.chars().take(32).collect());
        let (minutes, seconds) = text.trim().split_once('+').ok_or_else(bad)?;
        let minutes: u64 = minutes.parse().map_err(|_| bad())?;
        let seconds: u64 = seconds.parse().map_err(|_| bad())?;
        let control = TimeControl {
            base: Duration::from_secs(minutes.checked_mul(60).ok_or_else(bad)?),
            increment: Duration::from_secs(seconds),
        };
        let usable = control.base <= MAX_BASE
            && control.increment <= MAX_INCREMENT
            && !(control.base.is_zero() && control.increment.is_zero());
        if usable { Ok(control) } else { Err(bad()) }
    }
}

/// As it is typed: `3+2`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs() / 60,
            self.increment.as_secs()
        )
    }
}

/// Both sides' clocks: what each had left when it last stopped, and which
/// one runs since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The control the clocks follow.
    pub control: TimeControl,
    /// X's time left when its clock last stopped (or at the start).
    pub x: Duration,
    /// O's time left when its clock last stopped.
    pub o: Duration,
    /// The side whose clock runs, and since when; `None` while stopped.
    pub running: Option<(Player, Instant)>,
}

impl Clock {
    /// Both clocks at the control's base time, stopped.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            x: control.base,
            o: control.base,
            running: None,
        }
    }

    /// The clocks as they were saved: each side's time left, stopped.
    pub fn restored(control: TimeControl, x: Duration, o: Duration) -> Clock {
        Clock {
            control,
            x,
            o,
            running: None,
        }
    }

    fn stored(&self, player: Player) -> Duration {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    fn stored_mut(&mut self, player: Player) -> &mut Duration {
        match player {
            Player::X => &mut self.x,
            Player::O => &mut self.o,
        }
    }

    /// `player`'s time left at `now` (zero once it ran out).
    pub fn left(&self, player: Player, now: Instant) -> Duration {
        let stored = self.stored(player);
        match self.running {
            Some((runner, since)) if runner == player => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Starts `player`'s clock at `now` (the other one stops where it is).
    pub fn start(&mut self, player: Player, now: Instant) {
        self.stop(now);
        self.running = Some((player, now));
    }

    /// Stops the running clock at `now`, keeping what it has left.
    pub fn stop(&mut self, now: Instant) {
        if let Some((runner, _)) = self.running {
            *self.stored_mut(runner) = self.left(runner, now);
            self.running = None;
        }
    }

    /// `player` moved at `now`: their clock stops, gains the increment,
    /// and the other side's starts. False (and nothing changes) when their
    /// time had already run out.
    pub fn moved(&mut self, player: Player, now: Instant) -> bool {
        if self.left(player, now).is_zero() {
            return false;
        }
        self.stop(now);
        let increment = self.control.increment;
        *self.stored_mut(player) += increment;
        self.running = Some((player.other(), now));
        true
    }

    /// When the running clock reaches zero, if one runs.
    pub fn flag_at(&self) -> Option<(Player, Instant)> {
        let (runner, since) = self.running?;
        Some((runner, since + self.stored(runner)))
    }

    /// The next moment the shown time of the running clock changes (its
    /// next whole second down), for a screen to redraw then.
    pub fn next_tick(&self, now: Instant) -> Option<Instant> {
        let (runner, _) = self.running?;
        let left = self.left(runner, now);
        if left.is_zero() {
            return None;
        }
        let into_second = Duration::from_nanos((left.as_nanos() % 1_000_000_000) as u64);
        let wait = if into_second.is_zero() {
            Duration::from_secs(1)
        } else {
            into_second
        };
        Some(now + wait)
    }
}

/// A time left as a clock shows it: `2:05`, `1:02:05` past an hour, and
/// tenths under ten seconds (`7.3`). Rounded down, as a clock counts.
pub fn show(left: Duration) -> String {
    let secs = left.as_secs();
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else if secs >= 10 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}.{}", secs, left.subsec_millis() / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_write_as_typed() {
        let control: TimeControl = "3+2".parse().unwrap();
        assert_eq!(control.base, Duration::from_secs(180));
        assert_eq!(control.increment, Duration::from_secs(2));
        assert_eq!(control.to_string(), "3+2");
        assert_eq!("0+5".parse::<TimeControl>().unwrap().to_string(), "0+5");
        for bad in [
            "", "3", "3+", "+2", "0+0", "3+-1", "1441+0", "3+3601", "x+y", "3 + 2",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_running_clock_counts_down_and_a_move_adds_the_increment() {
        let control: TimeControl = "1+2".parse().unwrap();
        let t0 = Instant::now();
        let mut clock = Clock::new(control);
        assert_eq!(clock.flag_at(), None);
        clock.start(Player::X, t0);
        let later = t0 + Duration::from_secs(10);
        assert_eq!(clock.left(Player::X, later), Duration::from_secs(50));
        assert_eq!(clock.left(Player::O, later), Duration::from_secs(60));
        assert!(clock.moved(Player::X, later));
        assert_eq!(clock.x, Duration::from_secs(52));
        assert_eq!(
            clock.flag_at(),
            Some((Player::O, later + Duration::from_secs(60)))
        );
        // O lets the time run out: no move then.
        let late = later + Duration::from_secs(61);
        assert_eq!(clock.left(Player::O, late), Duration::ZERO);
        assert!(!clock.moved(Player::O, late));
    }

    #[test]
    fn the_screen_wakes_when_the_shown_second_changes() {
        let control: TimeControl = "1+0".parse().unwrap();
        let t0 = Instant::now();
        let mut clock = Clock::new(control);
        clock.start(Player::O, t0);
        let now = t0 + Duration::from_millis(300);
        assert_eq!(clock.next_tick(now), Some(now + Duration::from_millis(700)));
        assert_eq!(show(clock.left(Player::O, now)), "0:59");
        assert_eq!(show(Duration::from_millis(7_350)), "7.3");
        assert_eq!(show(Duration::from_secs(3_725)), "1:02:05");
    }
}
