//! The SSH side of one connection: authentication, and the requests a
//! client may make. Only what the game needs is granted (one session
//! channel with a terminal and a shell); everything else is refused and
//! logged. Keys and resizes go on to the session task.

use std::net::SocketAddr;
use std::sync::Arc;

use russh::keys::PublicKey;
use russh::server::{
    Auth, ChannelOpenHandle, Handler, Msg, PublicKeyOffer, Session, VerifiedPublicKey,
};
use russh::{Channel, ChannelId, Pty};
use tokio::sync::{mpsc, watch};

use super::lobby::MAX_NAME;
use super::session::{self, Client, Input, clamp_size};
use super::{Phase, Refusal, Shared, log};

/// Keys in flight from the network to a session before the network waits:
/// a flood is slowed at the SSH side, never queued without end.
const INPUT_QUEUE: usize = 16;

/// What the client asked for so far.
pub(super) struct Connection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// Why the server turns this connection away, if it does.
    refusal: Option<Refusal>,
    phase: Arc<watch::Sender<Phase>>,
    user: String,
    channel: Option<ChannelId>,
    /// TERM and size from the terminal request.
    pty: Option<(String, u32, u32)>,
    no_color: bool,
    input: Option<mpsc::Sender<Input>>,
}

impl Connection {
    pub(super) fn new(
        shared: Arc<Shared>,
        peer: SocketAddr,
        refusal: Option<Refusal>,
        phase: Arc<watch::Sender<Phase>>,
    ) -> Connection {
        Connection {
            shared,
            peer,
            refusal,
            phase,
            user: "guest".to_string(),
            channel: None,
            pty: None,
            no_color: false,
            input: None,
        }
    }

    fn refuse(&self, what: &str) {
        log(format_args!(
            "refused {what} from {} ({})",
            self.user, self.peer
        ));
    }

    fn allowed(&self, key: &PublicKey) -> bool {
        self.shared
            .authorized
            .as_ref()
            .is_some_and(|keys| keys.contains(key.key_data()))
    }

    fn is_ours(&self, channel: ChannelId) -> bool {
        self.channel == Some(channel)
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

/// The SSH user name as a player's name: printable, at most [`MAX_NAME`] characters.
fn sanitise(user: &str) -> String {
    let name: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || "-_.@+".contains(*c))
        .take(MAX_NAME)
        .collect();
    if name.is_empty() {
        "guest".to_string()
    } else {
        name
    }
}

/// TERM values that cannot show the game, and those without colour.
fn terminal_kind(term: &str) -> (bool, bool) {
    let usable = term != "dumb";
    let colour = !(term.ends_with("-m")
        || term.ends_with("-mono")
        || matches!(term, "vt100" | "vt102" | "vt220" | "dumb"));
    (usable, colour)
}

impl Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        if self.shared.authorized.is_some() {
            return Ok(Auth::reject());
        }
        self.user = sanitise(user);
        Ok(Auth::Accept)
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(if self.allowed(offer.public_key) {
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
        if !self.allowed(key.public_key) {
            return Ok(Auth::reject());
        }
        self.user = sanitise(user);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            // One game per connection; dropping the reply refuses the channel.
            self.refuse("a second session");
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
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("an X11 channel");
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
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("port forwarding");
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        _path: &str,
        _reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("socket forwarding");
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote port forwarding");
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        _path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote socket forwarding");
        Ok(false)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("agent forwarding");
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
        self.refuse("X11 forwarding");
        session.channel_failure(channel)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _command: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("a command");
        session.extended_data(
            channel,
            1,
            "tictactoe: only the game is served here; connect without a command\r\n",
        )?;
        session.channel_failure(channel)?;
        session.close(channel)
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
        self.refuse(&format!("the {name} subsystem"));
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
        if name == "NO_COLOR" {
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
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.is_ours(channel) {
            return Ok(());
        }
        if let Some((_, old_cols, old_rows)) = &mut self.pty {
            (*old_cols, *old_rows) = (cols, rows);
        }
        if let Some(input) = &self.input {
            let (cols, rows) = clamp_size(cols, rows);
            let _ = input.send(Input::Resize(cols, rows)).await;
        }
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
        if let Some(refusal) = self.refusal {
            self.refuse(&format!("a game ({})", refusal.reason()));
            return self.turn_away(channel, &refusal.message(&self.shared), session);
        }
        let Some((term, cols, rows)) = self.pty.clone() else {
            self.refuse("a game without a terminal");
            return self.turn_away(
                channel,
                "the game needs a terminal; connect with ssh -t",
                session,
            );
        };
        let (usable, colour) = terminal_kind(&term);
        if !usable {
            self.refuse("a game on TERM=dumb");
            return self.turn_away(
                channel,
                "the game needs a terminal that can move the cursor (TERM is dumb)",
                session,
            );
        }
        let (cols, rows) = clamp_size(cols, rows);
        let client = Client {
            name: self.user.clone(),
            peer: self.peer.to_string(),
            cols,
            rows,
            color: colour && !self.no_color,
        };
        let (input, received) = mpsc::channel(INPUT_QUEUE);
        self.input = Some(input);
        self.phase.send_replace(Phase::Playing);
        tokio::spawn(session::run(
            Arc::clone(&self.shared),
            client,
            session.handle(),
            channel,
            received,
            Arc::clone(&self.phase),
        ));
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(input) = self.input.as_ref().filter(|_| self.is_ours(channel)) {
            // Waits while the session is behind: the client's flood slows down here.
            let _ = input.send(Input::Bytes(data.to_vec())).await;
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
