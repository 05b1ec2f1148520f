//! The SSH side of one connection: authentication, and the requests a
//! client may make. Only what the game needs is granted (one session
//! channel with a terminal and a shell); everything else is refused and
//! logged. Keys and resizes go on to the session task.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use russh::keys::{HashAlg, PublicKey};
use russh::server::{
    Auth, ChannelOpenHandle, Handler, Msg, PublicKeyOffer, Session, VerifiedPublicKey,
};
use russh::{Channel, ChannelId, Disconnect, Pty};
use tokio::sync::{mpsc, watch};

use super::admission::{PlayerSlot, Progress};
use super::commands;
use super::limit::LogBudget;
use super::lines::{self, LineClient};
use super::names::{player_name, taken};
use super::output::{Outbox, Reading};
use super::session::{self, Client, Input, Wire, clamp_size};
use super::store::{Account, Lane};
use super::{Phase, Shared};

/// Keys in flight from the network to a session before the network waits:
/// a flood is slowed at the SSH side, never queued without end.
const INPUT_QUEUE: usize = 16;

/// Requests refused before the connection is closed: a client that asks
/// for what is never granted this often is not a player.
const MAX_REFUSED: u32 = 5;
/// What a client refused that often is told, and the log says.
pub(super) const TOO_MANY_REFUSED: &str = "too many refused requests";
/// Environment variables a client may send; `ssh` sends a handful.
const MAX_ENV: u32 = 64;

/// What the client asked for so far.
pub(super) struct Connection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    phase: Arc<watch::Sender<Phase>>,
    /// How far the login has come, for the admission.
    progress: Arc<Progress>,
    /// The player's name, or why the user name cannot be one.
    name: Result<String, String>,
    /// Why the key that logged in may not play, if it may not.
    no_game: Option<&'static str>,
    /// The SHA-256 fingerprint of the key that logged in; `None` for a guest.
    key: Option<String>,
    /// Requests refused so far.
    refused: u32,
    /// Environment variables sent so far.
    env: u32,
    log: LogBudget,
    channel: Option<ChannelId>,
    /// TERM and size from the terminal request.
    pty: Option<(String, u32, u32)>,
    no_color: bool,
    input: Option<mpsc::Sender<Input>>,
    /// The game's screen on its way to the client, once playing.
    outbox: Option<Arc<Outbox>>,
    /// Whether the client answers its pings.
    reading: Reading,
    /// The session is the game in sentences: the client's end of input ends it.
    lines: bool,
}

impl Connection {
    pub(super) fn new(
        shared: Arc<Shared>,
        peer: SocketAddr,
        phase: Arc<watch::Sender<Phase>>,
        progress: Arc<Progress>,
    ) -> Connection {
        Connection {
            shared,
            peer,
            phase,
            progress,
            name: Ok("guest".to_string()),
            no_game: None,
            key: None,
            refused: 0,
            env: 0,
            log: LogBudget::new(format!("connection from {peer}")),
            channel: None,
            pty: None,
            no_color: false,
            input: None,
            outbox: None,
            reading: Reading::default(),
            lines: false,
        }
    }

    fn user(&self) -> &str {
        match &self.name {
            Ok(name) => name,
            Err(_) => "(refused name)",
        }
    }

    /// Logs a refused request (within the connection's log budget) and
    /// counts it: the [`MAX_REFUSED`]th disconnects the client, and russh
    /// reads nothing of this connection after the request at hand.
    fn refuse(&mut self, what: &str, session: &mut Session) {
        self.refused += 1;
        let (user, peer) = (self.user().to_string(), self.peer);
        self.log
            .log(format_args!("refused {what} from {user} ({peer})"));
        if self.refused == MAX_REFUSED {
            let _ = session.disconnect(Disconnect::ByApplication, TOO_MANY_REFUSED, "");
            self.phase.send_if_modified(|phase| {
                let open = matches!(*phase, Phase::Handshake | Phase::Playing);
                if open {
                    *phase = Phase::Refused;
                }
                open
            });
        }
    }

    /// What `key` may do from this client's address, if it may log in:
    /// without a guest list any key may play.
    fn admit(&self, key: &PublicKey) -> Option<Option<&'static str>> {
        let Some(guests) = self.shared.guests.as_ref() else {
            return Some(None);
        };
        guests
            .admit(key, self.peer.ip())
            .map(|permits| permits.no_game())
    }

    /// The key's player under `name` (made on its first visit), or the
    /// reason the name cannot be used: another key's or a look-alike of
    /// one, a guest's here now, or the database failed.
    async fn account(&self, name: &str) -> Result<Option<Account>, String> {
        let lobby = &self.shared.lobby;
        let store = lobby.store();
        let failed = |error: Option<String>| {
            if let Some(error) = error {
                super::log(format_args!(
                    "database: could not read the players: {error}"
                ));
            }
            "the server could not read its database; try again later".to_string()
        };
        let wanted = name.to_string();
        let Some(fingerprint) = self.key.clone() else {
            // A guest: no name a key holds, or one like it.
            return match store.ask(Lane::Game, move |db| db.holder(&wanted)).await {
                Some(Ok(None)) => Ok(None),
                Some(Ok(Some(holder))) => Err(taken(name, &holder)),
                Some(Err(error)) => Err(failed(Some(error.to_string()))),
                None => Err(failed(None)),
            };
        };
        let known = {
            let fingerprint = fingerprint.clone();
            store
                .ask(Lane::Game, move |db| db.account_of(&fingerprint))
                .await
        };
        match known {
            Some(Ok(Some(account))) => return Ok(Some(account)),
            Some(Ok(None)) => {}
            Some(Err(error)) => return Err(failed(Some(error.to_string()))),
            None => return Err(failed(None)),
        }
        // A new key: not a name a guest here now goes by.
        if let Some(guest) = lobby.guest_like(name) {
            return Err(format!(
                "the name {name} is a guest's here now ({guest}); connect as another name (ssh NAME@host)"
            ));
        }
        match store
            .ask(Lane::Game, move |db| db.sign_in(&fingerprint, &wanted))
            .await
        {
            Some(Ok(Ok(account))) => Ok(Some(account)),
            Some(Ok(Err(holder))) => Err(taken(name, &holder)),
            Some(Err(error)) => Err(failed(Some(error.to_string()))),
            None => Err(failed(None)),
        }
    }

    /// The key's player if it has played here, for a command: a command
    /// reads and claims no name.
    async fn known_account(&self) -> Result<Option<Account>, String> {
        let Some(fingerprint) = self.key.clone() else {
            return Ok(None);
        };
        let store = self.shared.lobby.store();
        match store
            .ask(Lane::Reading, move |db| db.account_of(&fingerprint))
            .await
        {
            Some(Ok(account)) => Ok(account),
            _ => Err("the server could not read its database; try again later".to_string()),
        }
    }

    fn is_ours(&self, channel: ChannelId) -> bool {
        self.channel == Some(channel)
    }

    /// On each message from a playing client: a ping kept on its way, its
    /// answer awaited for the send timeout.
    fn check_reading(&mut self, session: &mut Session) {
        let Some(outbox) = &self.outbox else {
            return;
        };
        let patience = self.shared.send_timeout;
        self.reading
            .on_input(Instant::now(), patience, session, outbox);
    }

    /// Hands input to the session, waiting while it is behind (a flood
    /// slows down here); a wait means the server was behind on this
    /// client's input until now.
    async fn pass_on(&self, given: Input) {
        let Some(input) = &self.input else {
            return;
        };
        if let Err(mpsc::error::TrySendError::Full(given)) = input.try_send(given) {
            let outbox = self.outbox.as_deref();
            outbox.inspect(|outbox| outbox.behind(true));
            let _ = input.send(given).await;
            outbox.inspect(|outbox| outbox.behind(false));
        }
    }

    /// Says why on the channel and closes it with exit status 1.
    fn turn_away(
        &self,
        channel: ChannelId,
        message: &str,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        session.data(channel, format!("tictactoe: {message}\r\n"))?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)?;
        self.phase.send_replace(Phase::Finished);
        Ok(())
    }
}

impl Connection {
    /// The player's name and place, once the name, the key's options and
    /// the limits allow a game; otherwise the client is told why.
    async fn admit_player(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<Option<(String, Option<Account>, PlayerSlot)>, russh::Error> {
        let name = match self.name.clone() {
            Ok(name) => name,
            Err(why) => {
                self.refuse("a game (the name)", session);
                self.turn_away(channel, &why, session)?;
                return Ok(None);
            }
        };
        if let Some(why) = self.no_game {
            self.refuse("a game (the key's options)", session);
            self.turn_away(channel, why, session)?;
            return Ok(None);
        }
        // Only a key that may play takes a name.
        let account = match self.account(&name).await {
            Ok(account) => account,
            Err(why) => {
                self.refuse("a game (the name)", session);
                self.turn_away(channel, &why, session)?;
                return Ok(None);
            }
        };
        match self.shared.admission.player_slot(self.peer.ip()) {
            Ok(place) => Ok(Some((name, account, place))),
            Err(refusal) => {
                self.refuse(&format!("a game ({})", refusal.reason()), session);
                let message = refusal.message(self.shared.admission.limits());
                self.turn_away(channel, &message, session)?;
                Ok(None)
            }
        }
    }

    /// A session's ways to and from the client: its screen and its input.
    fn open_session(
        &mut self,
        channel: ChannelId,
        session: &Session,
    ) -> (Wire, mpsc::Receiver<Input>) {
        let (input, received) = mpsc::channel(INPUT_QUEUE);
        self.input = Some(input);
        let outbox = Arc::new(Outbox::default());
        self.outbox = Some(Arc::clone(&outbox));
        self.phase.send_replace(Phase::Playing);
        let wire = Wire {
            handle: session.handle(),
            channel,
            outbox,
            phase: Arc::clone(&self.phase),
        };
        (wire, received)
    }

    /// The full-screen game: the lobby first.
    async fn start_game(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
        (cols, rows): (u32, u32),
        colour: bool,
    ) -> Result<(), russh::Error> {
        let Some((name, account, place)) = self.admit_player(channel, session).await? else {
            return Ok(());
        };
        let (cols, rows) = clamp_size(cols, rows);
        let client = Client {
            name,
            peer: self.peer.to_string(),
            cols,
            rows,
            color: colour && !self.no_color,
            account,
        };
        let wire = self.open_session(channel, session);
        tokio::spawn(session::run(Arc::clone(&self.shared), client, place, wire));
        Ok(())
    }

    /// The game in sentences, a line for each event.
    async fn start_lines(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        let Some((name, _account, place)) = self.admit_player(channel, session).await? else {
            return Ok(());
        };
        let client = LineClient {
            name,
            peer: self.peer.to_string(),
            terminal: self.pty.is_some(),
        };
        self.lines = true;
        let wire = self.open_session(channel, session);
        tokio::spawn(lines::run(Arc::clone(&self.shared), client, place, wire));
        Ok(())
    }
}

/// The connection is gone (russh drops its handler then): its session ends
/// at once, not after the input it still holds.
impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(outbox) = &self.outbox {
            outbox.gone();
        }
    }
}

/// TERM values that cannot show the game, and those without colour.
fn terminal_kind(term: &str) -> (bool, bool) {
    let usable = !tictactoe_game::text::draws_nothing(term);
    let colour = !(term.ends_with("-m")
        || term.ends_with("-mono")
        || matches!(term, "vt100" | "vt102" | "vt220" | "dumb"));
    (usable, colour)
}

impl Connection {
    /// Answers `leaderboard` or `history` and closes the channel: exit
    /// status 0 with the answer, 1 with why not.
    async fn run_command(
        &mut self,
        channel: ChannelId,
        command: &str,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        let started = Instant::now();
        let account = match &self.name {
            Ok(_) => self.known_account().await,
            Err(why) => Err(why.clone()),
        };
        let store = self.shared.lobby.store();
        let reads = &self.shared.reads;
        let answer = match &account {
            Ok(account) => {
                let asker = commands::Asker {
                    address: self.peer.ip(),
                    key: self.key.as_deref(),
                    account: account.as_ref(),
                };
                commands::run(command, asker, store, reads).await
            }
            Err(why) => Err(why.clone()),
        };
        let who = match (&account, &self.key) {
            (Ok(Some(account)), _) => account.name.clone(),
            (_, Some(key)) => format!("a new key {key}"),
            _ => format!("guest {}", self.user()),
        };
        let took = started.elapsed();
        match &answer {
            Ok(said) => reads.log(format_args!(
                "command {command} by {who} from {}: {} bytes in {:.1} ms{}",
                self.peer,
                said.text.len(),
                took.as_secs_f64() * 1e3,
                if said.cached { " (kept)" } else { "" }
            )),
            Err(why) => reads.log(format_args!(
                "command {command} by {who} from {}: refused: {why}",
                self.peer
            )),
        }
        let newline = |text: String| {
            if self.pty.is_some() {
                text.replace('\n', "\r\n")
            } else {
                text
            }
        };
        let status = match answer {
            Ok(answer) => {
                session.data(channel, newline(answer.text))?;
                if let Some(note) = answer.note {
                    session.extended_data(channel, 1, newline(format!("tictactoe: {note}\n")))?;
                }
                0
            }
            Err(why) => {
                session.extended_data(channel, 1, newline(format!("tictactoe: {why}\n")))?;
                1
            }
        };
        session.exit_status_request(channel, status)?;
        session.eof(channel)?;
        session.close(channel)?;
        self.phase.send_replace(Phase::Finished);
        Ok(())
    }
}

impl Handler for Connection {
    type Error = russh::Error;

    /// The key exchange is done and the client asks to authenticate: the
    /// admission counts it as in authentication from now on.
    async fn authentication_banner(&mut self) -> Result<Option<String>, Self::Error> {
        self.progress.authenticating();
        Ok(None)
    }

    /// Refused, so that a client with a key offers it (ssh asks with
    /// "none" first): a player is their key.
    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(Auth::reject())
    }

    /// A client without a key, with no guest list: let in as a guest, with
    /// no question asked (no seat kept, no rated games, no history).
    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if self.shared.guests.is_some() {
            return Ok(Auth::reject());
        }
        self.key = None;
        self.name = player_name(user);
        Ok(Auth::Accept)
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(if self.admit(offer.public_key).is_some() {
            Auth::Accept
        } else {
            Auth::reject()
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let Some(no_game) = self.admit(key.public_key) else {
            return Ok(Auth::reject());
        };
        self.no_game = no_game;
        self.key = Some(key.public_key.fingerprint(HashAlg::Sha256).to_string());
        self.name = player_name(user);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            // One game per connection; dropping the reply refuses the channel.
            self.refuse("a second session", session);
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    async fn channel_open_x11(
        &mut self,
        _channel: Channel<Msg>,
        _address: &str,
        _port: u32,
        _reply: ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("an X11 channel", session);
        Ok(())
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        _host: &str,
        _port: u32,
        _from_address: &str,
        _from_port: u32,
        _reply: ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("port forwarding", session);
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        _path: &str,
        _reply: ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("socket forwarding", session);
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote port forwarding", session);
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        _path: &str,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote socket forwarding", session);
        Ok(false)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("agent forwarding", session);
        Ok(false)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("X11 forwarding", session);
        session.channel_failure(channel)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        command: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.is_ours(channel) || self.input.is_some() {
            self.refuse("a command", session);
            return session.channel_failure(channel);
        }
        // Granted either way: ssh shows what a refused request's channel
        // said only once the request was granted.
        session.channel_success(channel)?;
        if command.trim_ascii() == lines::COMMAND.as_bytes() {
            return self.start_lines(channel, session).await;
        }
        let typed = String::from_utf8_lossy(command).into_owned();
        if commands::NAMES.contains(&typed.split_whitespace().next().unwrap_or("")) {
            return self.run_command(channel, &typed, session).await;
        }
        self.refuse("a command", session);
        session.extended_data(
            channel,
            1,
            format!(
                "tictactoe: only the game is served here; connect without a command, or with {} for the game in sentences, leaderboard or history (each with --json)\r\n",
                lines::COMMAND
            ),
        )?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)?;
        self.phase.send_replace(Phase::Finished);
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_graphic())
            .take(32)
            .collect();
        self.refuse(&format!("the {name} subsystem"), session);
        session.channel_failure(channel)?;
        session.close(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.env += 1;
        if self.env > MAX_ENV {
            self.refuse("more environment variables", session);
            session.channel_failure(channel)
        } else if name == "NO_COLOR" {
            self.no_color = !value.is_empty();
            session.channel_success(channel)
        } else {
            session.channel_failure(channel)
        }
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.is_ours(channel) || self.input.is_some() {
            return session.channel_failure(channel);
        }
        let term: String = term
            .chars()
            .filter(|c| c.is_ascii_graphic())
            .take(64)
            .collect();
        self.pty = Some((term, cols, rows));
        session.channel_success(channel)
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.is_ours(channel) {
            return Ok(());
        }
        self.check_reading(session);
        if let Some((_, old_cols, old_rows)) = &mut self.pty {
            (*old_cols, *old_rows) = (cols, rows);
        }
        let (cols, rows) = clamp_size(cols, rows);
        self.pass_on(Input::Resize(cols, rows)).await;
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.is_ours(channel) || self.input.is_some() {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        // A terminal that cannot show the game (or none) gets it in sentences.
        match self.pty.clone() {
            Some((term, cols, rows)) if terminal_kind(&term).0 => {
                let colour = terminal_kind(&term).1;
                self.start_game(channel, session, (cols, rows), colour)
                    .await
            }
            _ => self.start_lines(channel, session).await,
        }
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.is_ours(channel) {
            self.check_reading(session);
        }
        if self.is_ours(channel) {
            self.pass_on(Input::Bytes(data.to_vec())).await;
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.lines && self.is_ours(channel) {
            // The end of the client's lines: the session reads to it and finishes.
            self.input = None;
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.is_ours(channel) {
            // The session sees its input end and leaves.
            self.input = None;
        }
        Ok(())
    }
}
