//! A room: one tokio task that owns its seats, its viewers and its game. Everything else
//! talks to it through its mailbox; nothing locks game state. The room never waits on a
//! socket: each connection has a bounded outbound queue filled with `try_send`, and a
//! client whose queue is full is dropped (it can reconnect and get a snapshot).

use crate::turn_timer::{Moment, TurnTimer};
use crate::view_stream::{Frame, ServerFields, ViewStream};
use crate::wire::{Refused, Wire};
use crate::AppState;
use catan_bots::Bot;
use catan_protocol::{close, ClientMsg, RoomInfo, RoomOptions, RoomStatus, SeatInfo, ServerMsg};
use catan_protocol::{MAX_CHAT_CHARS, MAX_NAME_CHARS};
use catan_rules::{Action, Game, GameConfig, Seat, Viewer};
use catan_store::{
    ActionRecord, Durable, FinishedGame, GameStatus, JournalHandle, JournalOp, LiveGame, LiveSeat,
    PlayerKind, PlayerRecord, ResumedGame,
};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Utf8Bytes;

pub type ConnId = u64;

/// The sending half of one connection, as the room sees it: the room writes its messages
/// to the socket itself ([`Wire`]); the session writes out what the socket could not take
/// at once. Dropping it lets the connection go (the session then closes it).
pub struct Outbound {
    pub wire: Arc<Wire>,
    /// Messages the backlog may hold before the client counts as too slow.
    pub limit: usize,
}

impl Outbound {
    /// Lets the connection go; its session sends this close frame.
    fn release(&self, code: u16, reason: &str) {
        self.wire.release(Some((code, reason.to_string())));
    }
}

impl Drop for Outbound {
    fn drop(&mut self) {
        // After `release` this does nothing (the first close left stands).
        self.wire.release(None);
    }
}

pub struct JoinRequest {
    pub name: Option<String>,
    pub token: Option<String>,
    pub spectate: bool,
}

/// What a room's mailbox carries.
pub enum RoomMsg {
    Join {
        conn: ConnId,
        join: JoinRequest,
        out: Outbound,
        reply: oneshot::Sender<Result<Viewer, (u16, String)>>,
    },
    Client {
        conn: ConnId,
        msg: ClientMsg,
    },
    Leave {
        conn: ConnId,
    },
    Info {
        reply: oneshot::Sender<RoomInfo>,
    },
    /// Bots move (after their think delay).
    BotTick,
    Shutdown,
}

struct SeatSlot {
    name: Option<String>,
    bot: bool,
    /// SHA-256 of the seat's token ([`catan_store::hash_token`]): the room keeps no token
    /// in clear, so a resumed room (which only has the journal's hashes) checks tokens the
    /// same way as a new one.
    token_hash: Option<String>,
    conn: Option<ConnId>,
    /// The seat's view stream (version and last view sent).
    stream: ViewStream,
    /// A person's seat in a game under way: since when its player has had no connection.
    away_since: Option<Instant>,
    /// The room's bot plays this person's seat: its player was away past the grace time.
    /// Reconnecting with the seat token ends it.
    taken_over: bool,
}

impl SeatSlot {
    /// A bot moves for this seat (a bot seat, or a person's seat taken over).
    fn bot_controlled(&self) -> bool {
        self.bot || self.taken_over
    }
}

struct Room {
    code: String,
    room_id: String,
    options: RoomOptions,
    config: GameConfig,
    seed: u64,
    app: AppState,
    self_tx: mpsc::Sender<RoomMsg>,
    seats: Vec<SeatSlot>,
    host: Option<Seat>,
    conns: HashMap<ConnId, (Viewer, Outbound)>,
    /// The one view stream all spectators share.
    spect: ViewStream,
    status: RoomStatus,
    game: Option<Game>,
    log: Vec<ActionRecord>,
    created_ms: i64,
    started_ms: Option<i64>,
    /// Plays every bot seat (and seats taken over), at the room's `bot_level`.
    bot: Bot,
    /// The turn and reaction timers of the game under way.
    timer: TurnTimer,
    /// The timer's deadline has passed and nothing could be done about it (the seats due
    /// are played by bots, or the journal was busy): do not wake for it again until the
    /// game changes.
    timer_idle: bool,
    bot_scheduled: bool,
    empty_since: Instant,
    finished_at: Option<Instant>,
    /// A seat's connection came or went since the last `room` message: everyone is told
    /// once the current mailbox message is handled.
    seats_changed: bool,
    /// The journal of live games (`None`: not journaled, `--no-journal` or no store).
    journal: Option<JournalHandle>,
    /// How many of this game's actions the journal has committed.
    durable: Arc<Durable>,
    /// Messages held back until the journal has committed the actions they show: each
    /// entry is released once `durable` reaches its count, in order.
    held: VecDeque<(u64, Vec<(ConnId, Utf8Bytes)>)>,
    /// The seats' control state (`away`, `bot_controlled`) every viewer's view has been
    /// sent: when it changes without an action, [`Room::sync_control`] sends it.
    control_sent: (Vec<Seat>, Vec<Seat>),
}

/// Why an action was not applied.
enum ApplyError {
    Rule(catan_rules::RuleError),
    /// The journal queue is full: the action was not applied (the game is unchanged).
    Busy,
}

/// The `status` label of the rooms gauge.
fn status_label(status: RoomStatus) -> &'static str {
    match status {
        RoomStatus::Lobby => "lobby",
        RoomStatus::Playing => "playing",
        RoomStatus::Finished => "finished",
    }
}

fn role_label(viewer: Viewer) -> &'static str {
    match viewer {
        Viewer::Seat(_) => "player",
        Viewer::Spectator => "spectator",
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Serializes a server message once (the bytes are shared between receivers).
pub(crate) fn text(msg: &ServerMsg) -> Utf8Bytes {
    serde_json::to_string(msg)
        .expect("server messages serialize")
        .into()
}

/// Creates a room task and registers it, within the server's room limits; returns
/// (code, room id).
pub fn spawn(
    app: &AppState,
    options: RoomOptions,
    owner: Option<std::net::IpAddr>,
) -> Result<(String, String), crate::registry::Full> {
    let (tx, rx) = mpsc::channel(1024);
    let room_id = uuid::Uuid::new_v4().to_string();
    let handle = crate::registry::RoomHandle {
        room_id: room_id.clone(),
        tx: tx.clone(),
        owner,
    };
    let limits = crate::registry::Limits {
        max_rooms: app.config.max_rooms,
        max_rooms_per_address: app.config.max_rooms_per_ip,
    };
    let code = app
        .registry
        .insert_limited(crate::codes::invite_code, handle, limits)?;
    let seed = options.seed.unwrap_or_else(crate::codes::random_seed);
    let n = options.players as usize;
    let seats = (0..n)
        .map(|s| SeatSlot {
            bot: s >= n - options.bots as usize,
            name: (s >= n - options.bots as usize).then(|| format!("Bot {}", s + 1)),
            token_hash: None,
            conn: None,
            stream: ViewStream::new(Viewer::Seat(s as Seat)),
            away_since: None,
            taken_over: false,
        })
        .collect();
    let bot = Bot::new(options.bot_level, seed);
    let timer = TurnTimer::new(options.turn_limit_ms, options.reaction_limit_ms);
    let room = Room {
        code: code.clone(),
        room_id: room_id.clone(),
        config: options.game_config(),
        options,
        seed,
        app: app.clone(),
        self_tx: tx,
        seats,
        host: None,
        conns: HashMap::new(),
        spect: ViewStream::new(Viewer::Spectator),
        status: RoomStatus::Lobby,
        game: None,
        log: Vec::new(),
        created_ms: now_ms(),
        started_ms: None,
        bot,
        timer,
        timer_idle: false,
        bot_scheduled: false,
        empty_since: Instant::now(),
        finished_at: None,
        seats_changed: false,
        journal: app.journal.clone(),
        durable: Durable::new(0),
        held: VecDeque::new(),
        control_sent: Default::default(),
    };
    crate::metrics::room_status(None, Some(status_label(RoomStatus::Lobby)));
    let span = tracing::info_span!("room", code = %code);
    tokio::spawn(tracing::Instrument::instrument(room.run(rx), span));
    Ok((code, room_id))
}

/// Why a journaled game could not be brought back.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("its room options do not read back: {0}")]
    Options(serde_json::Error),
    #[error("its seats do not match its options")]
    Seats,
    #[error("the game does not start again: {0}")]
    Start(catan_rules::ConfigError),
    #[error("action {index} is refused on replay: {error}")]
    Replay {
        index: u32,
        error: catan_rules::RuleError,
    },
    #[error("its invite code is taken")]
    CodeTaken,
}

/// Brings a journaled game back: replays seed + actions through the rules and opens its
/// room again under its old invite code, playing, with its seats (players rejoin with
/// their tokens; bots carry on). Returns the number of actions replayed.
pub fn resume(app: &AppState, live: ResumedGame) -> Result<usize, ResumeError> {
    let ResumedGame { game: live, actions } = live;
    let options: RoomOptions = serde_json::from_str(&live.options).map_err(ResumeError::Options)?;
    // The configuration the game was played with (not re-derived from the options).
    let config = live.config;
    if live.seats.len() != options.players as usize {
        return Err(ResumeError::Seats);
    }
    let mut game = Game::new(config, live.seed).map_err(ResumeError::Start)?;
    for a in &actions {
        game.apply(a.seat, a.action)
            .map_err(|error| ResumeError::Replay {
                index: a.index,
                error,
            })?;
    }
    let (tx, rx) = mpsc::channel(1024);
    let handle = crate::registry::RoomHandle {
        room_id: live.id.clone(),
        tx: tx.clone(),
        owner: None,
    };
    if !app.registry.insert_code(&live.code, handle) {
        return Err(ResumeError::CodeTaken);
    }
    let seats = live
        .seats
        .into_iter()
        .enumerate()
        .map(|(s, seat)| SeatSlot {
            name: Some(seat.name),
            bot: seat.bot,
            // Nobody is connected yet: the grace time runs from the restart.
            away_since: (!seat.bot).then(Instant::now),
            token_hash: seat.token_hash,
            conn: None,
            stream: ViewStream::new(Viewer::Seat(s as Seat)),
            taken_over: false,
        })
        .collect();
    let replayed = actions.len();
    // The timers start afresh: the time a turn had left before the restart is not kept.
    let mut timer = TurnTimer::new(options.turn_limit_ms, options.reaction_limit_ms);
    timer.follow(&game, None, Moment::now());
    let room = Room {
        code: live.code.clone(),
        room_id: live.id,
        config,
        bot: Bot::new(options.bot_level, live.seed),
        timer,
        timer_idle: false,
        options,
        seed: live.seed,
        app: app.clone(),
        self_tx: tx,
        seats,
        host: live.host,
        conns: HashMap::new(),
        spect: ViewStream::new(Viewer::Spectator),
        status: RoomStatus::Playing,
        game: Some(game),
        durable: Durable::new(replayed as u64),
        log: actions,
        created_ms: live.created_at_ms,
        started_ms: Some(live.started_at_ms),
        bot_scheduled: false,
        empty_since: Instant::now(),
        finished_at: None,
        seats_changed: false,
        journal: app.journal.clone(),
        held: VecDeque::new(),
        control_sent: Default::default(),
    };
    crate::metrics::room_status(None, Some(status_label(RoomStatus::Playing)));
    let span = tracing::info_span!("room", code = %live.code);
    tokio::spawn(tracing::Instrument::instrument(room.run(rx), span));
    Ok(replayed)
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>) {
        if self.status == RoomStatus::Playing {
            tracing::info!(room_id = %self.room_id, actions = self.log.len(), "room resumed from the journal");
            self.drive_bots(false);
        } else {
            tracing::info!(room_id = %self.room_id, players = self.options.players, bots = self.options.bots, "room created");
            if self.seats.iter().all(|s| s.bot) {
                self.start();
            }
        }
        let durable = self.durable.clone();
        // One sleep for the room's timers, moved only when the time it is due changes:
        // one made anew for every message was a timer-wheel insert and removal per action.
        let sleep = tokio::time::sleep_until(Instant::now());
        tokio::pin!(sleep);
        let mut armed = None;
        loop {
            let due = match (self.deadline(), self.next_timer()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if due != armed {
                if let Some(at) = due {
                    sleep.as_mut().reset(at);
                }
                armed = due;
            }
            tokio::select! {
                _ = durable.changed(), if !self.held.is_empty() => {
                    self.release();
                    self.sync_control();
                    if std::mem::take(&mut self.seats_changed) {
                        self.broadcast_room();
                    }
                }
                msg = rx.recv() => match msg {
                    None => break,
                    Some(RoomMsg::Shutdown) => {
                        self.close_all(close::GOING_AWAY, "server shutting down");
                        break;
                    }
                    Some(m) => {
                        self.handle(m);
                        self.sync_control();
                        if std::mem::take(&mut self.seats_changed) {
                            self.broadcast_room();
                        }
                    }
                },
                _ = &mut sleep, if armed.is_some() => {
                    // Fired: set again on the next turn of the loop, even for the same time.
                    armed = None;
                    if !self.expired() {
                        self.on_timers();
                        self.sync_control();
                        if std::mem::take(&mut self.seats_changed) {
                            self.broadcast_room();
                        }
                    } else {
                        let reason = if self.status == RoomStatus::Finished { "the game is over" } else { "the room was idle" };
                        tracing::info!(reason, "room closing");
                        if self.status == RoomStatus::Playing {
                            // Everyone left for good: the game is stored, abandoned, with
                            // its actions (and leaves the journal).
                            self.finish();
                        }
                        self.close_all(close::ROOM_CLOSED, reason);
                        break;
                    }
                }
            }
        }
        self.app.registry.remove(&self.code);
        crate::metrics::room_status(Some(status_label(self.status)), None);
        tracing::info!("room closed");
    }

    /// When the room closes (finished, or nobody connected for too long); `None`: not
    /// while someone is connected to a game not over.
    fn deadline(&self) -> Option<Instant> {
        if let Some(t) = self.finished_at {
            return Some(t + Duration::from_secs(self.app.config.room_finished_secs));
        }
        // All-bot games too: one nobody watches would otherwise play on unseen, for as
        // long as its turn cap allows.
        if self.conns.is_empty() {
            return Some(self.empty_since + Duration::from_secs(self.app.config.room_idle_secs));
        }
        None
    }

    fn expired(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// When a turn timer runs out or an away player's grace time ends (`None` if neither
    /// is due).
    fn next_timer(&self) -> Option<Instant> {
        if self.status != RoomStatus::Playing {
            return None;
        }
        let turn = self.timer.deadline().filter(|_| !self.timer_idle).map(|d| d.at);
        let takeover = self.options.away_grace_ms.and_then(|ms| {
            let grace = Duration::from_millis(ms as u64);
            let away = self.seats.iter().filter(|s| !s.bot_controlled());
            away.filter_map(|s| s.away_since).min().map(|t| t + grace)
        });
        [turn, takeover].into_iter().flatten().min()
    }

    /// Hands the seats of players away past the grace time to the room's bot, and moves
    /// for the seats whose time is up (one move at a time, each through [`Room::apply`],
    /// so journaled and replayed like any other), until no seat is due.
    fn on_timers(&mut self) {
        if self.status != RoomStatus::Playing {
            return;
        }
        let now = Instant::now();
        if let Some(ms) = self.options.away_grace_ms {
            let grace = Duration::from_millis(ms as u64);
            for (i, slot) in self.seats.iter_mut().enumerate() {
                if !slot.bot_controlled() && slot.away_since.is_some_and(|t| t + grace <= now) {
                    tracing::info!(seat = i, "player away past the grace time: a bot plays the seat");
                    slot.taken_over = true;
                    self.seats_changed = true;
                }
            }
        }
        for _ in 0..256 {
            if self.status != RoomStatus::Playing {
                return;
            }
            let due = self.timer.due(Instant::now());
            let game = self.game.as_ref().expect("playing");
            let mut chosen = None;
            for seat in due.iter() {
                if self.seats[seat as usize].bot_controlled() {
                    continue;
                }
                if let Some(action) = catan_bots::timeout_move(game, seat) {
                    chosen = Some((seat, action));
                    break;
                }
            }
            let Some((seat, action)) = chosen else {
                // Nobody due, or only bots (which move on their own).
                self.timer_idle = !due.is_empty();
                break;
            };
            tracing::info!(seat, action = action.name(), "time is up: moving for the seat");
            crate::metrics::timeout_move();
            match self.apply(seat, action) {
                Ok(()) => {}
                Err(ApplyError::Rule(e)) => {
                    tracing::error!(seat, ?action, error = %e, "timeout move refused");
                    self.timer_idle = true;
                    break;
                }
                Err(ApplyError::Busy) => {
                    // The journal is behind: the bot tick tries the timers again.
                    self.timer_idle = true;
                    self.schedule_bots(Duration::from_millis(100));
                    break;
                }
            }
        }
        self.drive_bots(false);
    }

    /// A game with no human seat (bots only) stops at the configured turn cap: nobody is
    /// there to end it, and random bots can trade resources back and forth for ever.
    fn turn_capped(&self) -> bool {
        let game = self.game.as_ref().expect("started");
        self.seats.iter().all(|s| s.bot) && game.turn() >= self.app.config.bot_turn_cap
    }

    fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Join {
                conn,
                join,
                out,
                reply,
            } => {
                let r = self.join(conn, join, out);
                let _ = reply.send(r);
            }
            RoomMsg::Client { conn, msg } => self.client(conn, msg),
            RoomMsg::Leave { conn } => self.drop_conn(conn, None),
            RoomMsg::Info { reply } => {
                let _ = reply.send(self.info());
            }
            RoomMsg::BotTick => {
                self.bot_scheduled = false;
                self.timer_idle = false;
                self.drive_bots(true);
            }
            RoomMsg::Shutdown => {}
        }
    }

    fn info(&self) -> RoomInfo {
        RoomInfo {
            code: self.code.clone(),
            room_id: self.room_id.clone(),
            status: self.status,
            options: self.options.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: i as Seat,
                    name: s.name.clone(),
                    bot: s.bot,
                    connected: s.conn.is_some(),
                    away: self.away(s),
                    controlled_by_bot: s.bot_controlled(),
                })
                .collect(),
            host: self.host,
            spectators: self
                .conns
                .values()
                .filter(|(v, _)| *v == Viewer::Spectator)
                .count() as u32,
            winner: self.game.as_ref().and_then(|g| g.winner()),
        }
    }

    // ----- connections --------------------------------------------------------------

    fn join(&mut self, conn: ConnId, join: JoinRequest, out: Outbound) -> Result<Viewer, (u16, String)> {
        let refuse = |m: &str| Err((close::JOIN_REFUSED, m.to_string()));
        // The token the welcome hands back: a new seat's, or the one the player rejoined with.
        let mut new_token = None;
        let viewer = if join.spectate {
            Viewer::Spectator
        } else if let Some(token) = &join.token {
            let hash = catan_store::hash_token(token);
            let Some(seat) = self
                .seats
                .iter()
                .position(|s| s.token_hash.as_deref() == Some(hash.as_str()))
            else {
                tracing::info!(conn, "join refused: unknown seat token");
                return refuse("unknown seat token");
            };
            if let Some(old) = self.seats[seat].conn {
                tracing::info!(
                    seat,
                    old,
                    conn,
                    "seat resumed by a new connection; closing the old one"
                );
                self.drop_conn(
                    old,
                    Some((close::REPLACED, "replaced by a newer connection to this seat")),
                );
            }
            Viewer::Seat(seat as Seat)
        } else if let Some(name) = &join.name {
            let name = name.trim();
            if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
                return refuse("a name must have 1 to 32 characters");
            }
            if self.status != RoomStatus::Lobby {
                return refuse(
                    "the game has started: join as a spectator, or reconnect with your seat token",
                );
            }
            let Some(seat) = self.seats.iter().position(|s| !s.bot && s.token_hash.is_none()) else {
                return refuse("the room is full");
            };
            let token = crate::codes::seat_token();
            let slot = &mut self.seats[seat];
            slot.name = Some(name.to_string());
            slot.token_hash = Some(catan_store::hash_token(&token));
            new_token = Some(token);
            if self.host.is_none() {
                self.host = Some(seat as Seat);
            }
            Viewer::Seat(seat as Seat)
        } else {
            return refuse("join needs a name (new seat), a token (your seat) or spectate: true");
        };
        self.conns.insert(conn, (viewer, out));
        crate::metrics::connection(role_label(viewer), 1.0);
        let token = match viewer {
            Viewer::Seat(s) => {
                let slot = &mut self.seats[s as usize];
                slot.conn = Some(conn);
                slot.away_since = None;
                if std::mem::take(&mut slot.taken_over) {
                    tracing::info!(seat = s, "player back: the bot hands the seat over");
                    // A deadline passed while the bot had the seat applies to the player.
                    self.timer_idle = false;
                }
                new_token.or(join.token)
            }
            Viewer::Spectator => None,
        };
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        tracing::info!(conn, ?seat, "joined");
        self.send(
            conn,
            text(&ServerMsg::Welcome {
                room: self.info(),
                seat,
                token,
            }),
        );
        if self.game.is_some() {
            self.send_snapshot(conn);
        }
        self.broadcast_room();
        Ok(viewer)
    }

    /// Removes a connection; with `close`, tells its session which close frame to send.
    fn drop_conn(&mut self, conn: ConnId, close: Option<(u16, &str)>) {
        let Some((viewer, out)) = self.conns.remove(&conn) else {
            return;
        };
        if let Some((code, reason)) = close {
            out.release(code, reason);
        }
        crate::metrics::connection(role_label(viewer), -1.0);
        if let Viewer::Seat(s) = viewer {
            let slot = &mut self.seats[s as usize];
            if slot.conn == Some(conn) {
                slot.conn = None;
                slot.stream.reset();
                if self.status == RoomStatus::Playing {
                    slot.away_since = Some(Instant::now());
                }
                self.seats_changed = true;
            }
        }
        if self.conns.is_empty() {
            self.empty_since = Instant::now();
        }
        tracing::debug!(conn, "connection left");
    }

    fn close_all(&mut self, code: u16, reason: &str) {
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        for c in conns {
            self.drop_conn(c, Some((code, reason)));
        }
    }

    /// Sends a message without waiting; a full backlog drops the client (too slow).
    fn send(&mut self, conn: ConnId, msg: Utf8Bytes) {
        let Some((_, out)) = self.conns.get_mut(&conn) else {
            return;
        };
        match out.wire.send(&msg, out.limit) {
            Ok(()) => {}
            Err(Refused::Full) => {
                tracing::warn!(conn, "client too slow: outbound queue full; dropping it");
                crate::metrics::slow_client_dropped();
                self.drop_conn(
                    conn,
                    Some((close::TOO_SLOW, "too slow: reconnect for a snapshot")),
                );
            }
            Err(Refused::Failed) => self.drop_conn(conn, None),
        }
    }

    /// Errors go out behind the updates still held for the journal: a client whose action
    /// was refused because its view was behind sees the newer view first (and does not
    /// retry, refused again, from the old one).
    fn error(&mut self, conn: ConnId, request: &str, message: String, rule: Option<catan_rules::RuleError>) {
        let msg = text(&ServerMsg::Error {
            request: request.into(),
            message,
            rule,
        });
        self.emit(vec![(conn, msg)]);
    }

    fn broadcast_room(&mut self) {
        let msg = text(&ServerMsg::Room { room: self.info() });
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        for c in conns {
            self.send(c, msg.clone());
        }
    }

    // ----- client messages ------------------------------------------------------------

    fn client(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(&(viewer, _)) = self.conns.get(&conn) else {
            return;
        };
        match msg {
            ClientMsg::Action { action } => self.client_action(conn, viewer, action),
            ClientMsg::Chat { text: t } => {
                let t = t.trim();
                if t.is_empty() || t.chars().count() > MAX_CHAT_CHARS {
                    return self.error(
                        conn,
                        "chat",
                        format!("a chat line has 1 to {MAX_CHAT_CHARS} characters"),
                        None,
                    );
                }
                let (from, seat) = match viewer {
                    Viewer::Seat(s) => (self.seats[s as usize].name.clone().unwrap_or_default(), Some(s)),
                    Viewer::Spectator => ("spectator".to_string(), None),
                };
                let msg = text(&ServerMsg::Chat {
                    from,
                    seat,
                    text: t.to_string(),
                });
                let conns: Vec<ConnId> = self.conns.keys().copied().collect();
                for c in conns {
                    self.send(c, msg.clone());
                }
            }
            ClientMsg::Resync => {
                if self.game.is_some() {
                    self.send_snapshot(conn);
                } else {
                    self.error(conn, "resync", "the game has not started".into(), None);
                }
            }
            ClientMsg::AddBots | ClientMsg::Start => {
                let request = msg.name();
                if viewer != Viewer::Seat(self.host.unwrap_or(u8::MAX)) {
                    return self.error(conn, request, "only the room's host may do this".into(), None);
                }
                if self.status != RoomStatus::Lobby {
                    return self.error(conn, request, "the game has already started".into(), None);
                }
                if matches!(msg, ClientMsg::AddBots) {
                    for (i, s) in self.seats.iter_mut().enumerate() {
                        if !s.bot && s.token_hash.is_none() {
                            s.bot = true;
                            s.name = Some(format!("Bot {}", i + 1));
                        }
                    }
                    self.broadcast_room();
                } else if self.seats.iter().any(|s| !s.bot && s.token_hash.is_none()) {
                    self.error(
                        conn,
                        request,
                        "every seat must be taken (add bots to fill them)".into(),
                        None,
                    );
                } else {
                    self.start();
                }
            }
            ClientMsg::Ping => self.send(conn, text(&ServerMsg::Pong)),
            ClientMsg::Join { .. } => self.error(conn, "join", "already joined".into(), None),
        }
    }

    fn client_action(&mut self, conn: ConnId, viewer: Viewer, action: Action) {
        let Viewer::Seat(seat) = viewer else {
            return self.error(conn, "action", "spectators cannot act".into(), None);
        };
        match self.status {
            RoomStatus::Lobby => return self.error(conn, "action", "the game has not started".into(), None),
            RoomStatus::Finished => return self.error(conn, "action", "the game is over".into(), None),
            RoomStatus::Playing => {}
        }
        match self.apply(seat, action) {
            Ok(()) => {}
            Err(ApplyError::Rule(e)) => {
                tracing::debug!(seat, ?action, error = %e, "action refused");
                self.error(conn, "action", format!("{}: {e}", action.name()), Some(e));
                return;
            }
            Err(ApplyError::Busy) => {
                let message = format!("{}: {}", action.name(), catan_store::JournalBusy);
                self.error(conn, "action", message, None);
                return;
            }
        }
        self.drive_bots(false);
    }

    // ----- the game -----------------------------------------------------------------

    fn start(&mut self) {
        let game = match Game::new(self.config, self.seed) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(error = %e, "cannot start");
                return;
            }
        };
        self.timer.follow(&game, None, Moment::now());
        self.game = Some(game);
        self.set_status(RoomStatus::Playing);
        self.started_ms = Some(now_ms());
        for slot in &mut self.seats {
            if !slot.bot && slot.conn.is_none() {
                slot.away_since = Some(Instant::now());
            }
        }
        tracing::info!(seed = self.seed, "game started");
        self.journal_start();
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        let mut snapshots = Vec::with_capacity(conns.len());
        {
            // One frame for all: the snapshots share one serialized public view.
            let server = self.server_fields();
            self.control_sent = (server.away.clone(), server.bot_controlled.clone());
            let mut frame = Frame::with_server(self.game.as_ref().unwrap(), &[], server);
            for c in conns {
                if let Some(msg) = snapshot_in(&self.conns, &mut self.seats, &mut self.spect, c, &mut frame) {
                    snapshots.push((c, msg));
                }
            }
        }
        self.emit(snapshots);
        self.broadcast_room();
        self.drive_bots(false);
    }

    /// Writes the game's start to the journal (room, seed, seats with token hashes). If
    /// the journal's queue is full the game is played unjournaled (said in the log).
    fn journal_start(&mut self) {
        let Some(journal) = &self.journal else {
            return;
        };
        let live = LiveGame {
            id: self.room_id.clone(),
            code: self.code.clone(),
            options: serde_json::to_string(&self.options).expect("room options serialize"),
            config: self.config,
            seed: self.seed,
            rules_version: catan_rules::RULES_VERSION.to_string(),
            host: self.host,
            created_at_ms: self.created_ms,
            started_at_ms: self.started_ms.unwrap_or_else(now_ms),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| LiveSeat {
                    name: s.name.clone().unwrap_or_else(|| format!("Seat {}", i + 1)),
                    bot: s.bot,
                    token_hash: s.token_hash.clone(),
                })
                .collect(),
        };
        if journal.try_send(JournalOp::Start(Box::new(live))).is_err() {
            tracing::error!("the journal is full: this game is NOT journaled and will not survive a restart");
            self.journal = None;
        }
    }

    fn send_snapshot(&mut self, conn: ConnId) {
        // Not recorded in `control_sent`: the other viewers may not have this state yet.
        let server = self.server_fields();
        let mut frame = Frame::with_server(self.game.as_ref().expect("started"), &[], server);
        let msg = snapshot_in(&self.conns, &mut self.seats, &mut self.spect, conn, &mut frame);
        drop(frame);
        if let Some(msg) = msg {
            self.emit(vec![(conn, msg)]);
        }
    }

    /// Sends messages that show the game as it is now: at once if the journal has every
    /// action applied so far (or there is no journal), else held back, behind whatever is
    /// held already, until it has.
    fn emit(&mut self, msgs: Vec<(ConnId, Utf8Bytes)>) {
        let upto = self.log.len() as u64;
        if self.journal.is_none() || (self.held.is_empty() && self.durable.count() >= upto) {
            for (conn, msg) in msgs {
                self.send(conn, msg);
            }
        } else {
            self.held.push_back((upto, msgs));
        }
    }

    /// Sends the held messages whose actions the journal has committed.
    fn release(&mut self) {
        let durable = self.durable.count();
        while self.held.front().is_some_and(|(upto, _)| *upto <= durable) {
            let (_, msgs) = self.held.pop_front().unwrap();
            for (conn, msg) in msgs {
                self.send(conn, msg);
            }
        }
    }

    /// Applies one action through the rules; on success logs it and sends every viewer
    /// its patch and redacted events.
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), ApplyError> {
        let started = std::time::Instant::now();
        // A place in the journal first: an action that could not be journaled is not
        // applied.
        let slot = match &self.journal {
            Some(j) => Some(j.reserve().map_err(|_| ApplyError::Busy)?),
            None => None,
        };
        let game = self.game.as_mut().expect("started");
        let events = game.apply(seat, action).map_err(|e| {
            crate::metrics::action_refused(action.name());
            ApplyError::Rule(e)
        })?;
        crate::metrics::action_applied(action.name());
        let record = ActionRecord {
            index: self.log.len() as u32,
            seat,
            action,
            at_ms: now_ms(),
        };
        self.log.push(record);
        if let Some(slot) = slot {
            slot.send(JournalOp::Append {
                game_id: self.room_id.as_str().into(),
                record,
                ack: self.durable.clone(),
            });
        }
        self.timer
            .follow(self.game.as_ref().unwrap(), Some(seat), Moment::now());
        self.timer_idle = false;
        self.broadcast_update(&events);
        crate::metrics::broadcast_time(started.elapsed().as_secs_f64());
        if self.game.as_ref().unwrap().is_over() {
            self.finish();
        } else if self.turn_capped() {
            tracing::info!(
                cap = self.app.config.bot_turn_cap,
                "turn cap reached; stopping unfinished"
            );
            self.finish();
        }
        Ok(())
    }

    /// Sends every viewer the next version of its view: the patch from the last view it
    /// received and `events` (none for a change of the server's fields alone).
    fn broadcast_update(&mut self, events: &[catan_rules::Event]) {
        let server = self.server_fields();
        self.control_sent = (server.away.clone(), server.bot_controlled.clone());
        let game = self.game.as_ref().expect("started");
        let mut outgoing: Vec<(ConnId, Utf8Bytes)> = Vec::new();
        // What all viewers share (the public view and its diff, public events) is
        // computed once for this action.
        let mut frame = Frame::with_server(game, events, server);
        // Seats with a connection: their own view, diffed against the last one sent.
        for slot in self.seats.iter_mut() {
            let Some(conn) = slot.conn else {
                // A change of the server's fields alone keeps every seat's version in
                // step, so that players rejoining one after another (after a restart)
                // are at the same version, as they are when actions alone move them.
                if events.is_empty() {
                    slot.stream.skip();
                }
                continue;
            };
            if let Some(msg) = slot.stream.update(&mut frame) {
                outgoing.push((conn, msg));
            }
        }
        // Spectators share one public view, diffed and serialized once.
        let spectators = self.conns.iter().filter(|(_, (v, _))| *v == Viewer::Spectator);
        let spectators: Vec<ConnId> = spectators.map(|(c, _)| *c).collect();
        if spectators.is_empty() {
            self.spect.reset();
        } else if let Some(msg) = self.spect.update(&mut frame) {
            outgoing.extend(spectators.into_iter().map(|c| (c, msg.clone())));
        }
        drop(frame);
        // Through the hold-back like an action's update: it must not overtake those held.
        self.emit(outgoing);
    }

    /// Whether a seat's player is away: a person's seat with no connection during the game.
    fn away(&self, s: &SeatSlot) -> bool {
        !s.bot && s.conn.is_none() && self.status == RoomStatus::Playing
    }

    /// What the server adds to every view now: the timer's deadline and the seats' control.
    fn server_fields(&self) -> ServerFields {
        let seats = self.seats.iter().enumerate();
        let (away, bots) = seats.fold((Vec::new(), Vec::new()), |(mut away, mut bots), (i, s)| {
            if self.away(s) {
                away.push(i as Seat);
            }
            if s.bot_controlled() {
                bots.push(i as Seat);
            }
            (away, bots)
        });
        ServerFields {
            deadline_ms: self.timer.deadline().map(|d| d.epoch_ms),
            away,
            bot_controlled: bots,
        }
    }

    /// A seat became away or came back, or a bot took a seat over or handed it back,
    /// without an action to carry it: every viewer gets an update with no events and the
    /// patch of its view's `away`/`bot_controlled`. Not journaled (not an action).
    fn sync_control(&mut self) {
        if self.game.is_none() {
            return;
        }
        let server = self.server_fields();
        if (&server.away, &server.bot_controlled) != (&self.control_sent.0, &self.control_sent.1) {
            self.broadcast_update(&[]);
        }
    }

    /// Lets bot seats act: at once with no think delay (in chunks, so the mailbox is
    /// served in between), or one move per delay.
    fn drive_bots(&mut self, mut may_move: bool) {
        let delay = self.app.config.bot_delay_ms;
        for _ in 0..64 {
            if self.status != RoomStatus::Playing {
                return;
            }
            let game = self.game.as_ref().unwrap();
            let awaited = game.waiting_on();
            if !awaited.iter().any(|s| self.seats[s as usize].bot_controlled()) {
                return;
            }
            if delay > 0 {
                if !may_move {
                    self.schedule_bots(Duration::from_millis(delay));
                    return;
                }
                may_move = false;
            }
            // The first awaited bot with something to do (a bot that made an offer waits
            // for the answers of the others).
            let bots = awaited
                .iter()
                .filter(|&s| self.seats[s as usize].bot_controlled());
            let mut chosen = None;
            for seat in bots {
                if let Some(action) = self.bot.choose(game, seat) {
                    chosen = Some((seat, action));
                    break;
                }
            }
            let Some((seat, action)) = chosen else {
                return;
            };
            match self.apply(seat, action) {
                Ok(()) => {}
                Err(ApplyError::Rule(e)) => {
                    tracing::error!(seat, ?action, error = %e, "bot action refused");
                    return;
                }
                Err(ApplyError::Busy) => {
                    // The journal is behind: try again shortly.
                    self.schedule_bots(Duration::from_millis(100));
                    return;
                }
            }
        }
        self.schedule_bots(Duration::ZERO);
    }

    fn schedule_bots(&mut self, after: Duration) {
        if self.bot_scheduled {
            return;
        }
        self.bot_scheduled = true;
        let tx = self.self_tx.clone();
        tokio::spawn(async move {
            if !after.is_zero() {
                tokio::time::sleep(after).await;
            }
            let _ = tx.send(RoomMsg::BotTick).await;
        });
    }

    /// The one place a room's status changes, so the rooms gauge follows it.
    fn set_status(&mut self, to: RoomStatus) {
        crate::metrics::room_status(Some(status_label(self.status)), Some(status_label(to)));
        self.status = to;
    }

    /// Ends the room's game: won, or stopped at the turn cap or left by everyone (stored
    /// as abandoned: the store's status for a game nobody won).
    fn finish(&mut self) {
        self.set_status(RoomStatus::Finished);
        self.finished_at = Some(Instant::now());
        let game = self.game.as_ref().unwrap();
        tracing::info!(winner = ?game.winner(), actions = self.log.len(), "game over");
        let mut record = FinishedGame {
            id: self.room_id.clone(),
            code: self.code.clone(),
            config: self.config,
            seed: self.seed,
            rules_version: catan_rules::RULES_VERSION.to_string(),
            created_at_ms: self.created_ms,
            started_at_ms: self.started_ms,
            finished_at_ms: now_ms(),
            status: GameStatus::Finished,
            winner: None,
            players: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| PlayerRecord {
                    seat: i as Seat,
                    name: s.name.clone().unwrap_or_else(|| format!("Seat {}", i + 1)),
                    kind: if s.bot { PlayerKind::Bot } else { PlayerKind::Human },
                    final_vp: 0,
                    won: false,
                })
                .collect(),
            actions: self.log.clone(),
        };
        record.set_result_from(game);
        if let Some(journal) = &self.journal {
            // Behind this game's last actions in the journal's queue: stored and removed
            // from the journal in one transaction.
            journal.send_later(JournalOp::End(Box::new(record)));
        } else if let Some(store) = &self.app.store {
            if let Err(e) = store.submit(record) {
                // Not lost without a trace: the whole record goes to the log.
                let record = serde_json::to_string(e.game()).unwrap_or_default();
                tracing::error!(%record, "finished game NOT stored: {e}");
            }
        }
        self.broadcast_room();
    }
}

/// The snapshot for `conn` from `frame` (the room's current game).
fn snapshot_in(
    conns: &HashMap<ConnId, (Viewer, Outbound)>,
    seats: &mut [SeatSlot],
    spect: &mut ViewStream,
    conn: ConnId,
    frame: &mut Frame<'_>,
) -> Option<Utf8Bytes> {
    let &(viewer, _) = conns.get(&conn)?;
    Some(match viewer {
        Viewer::Seat(s) => seats[s as usize].stream.snapshot(frame),
        // A spectator joining a running stream gets the shared view at its version (the
        // stream's last view is that same view).
        Viewer::Spectator => spect.snapshot(frame),
    })
}
