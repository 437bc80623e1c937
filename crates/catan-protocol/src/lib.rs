//! The wire protocol: every message a client and the server exchange over the WebSocket,
//! as JSON objects tagged by `"type"`. `protocol.md` at the repository root documents each
//! one with examples; the tests there and here keep both in step.

mod decode;
mod reach;

pub use decode::{decode_client, parse_strict, DecodeError};
pub use reach::victory_point_range;

pub use catan_bots::BotLevel;
use catan_rules::{Action, Event, FiveSixTurns, GameConfig, RuleError, Scenario, Seat, TokenPlacement};
use serde::{Deserialize, Serialize};

/// Largest text message a client may send (bytes). Larger ones close the socket with 1009.
pub const MAX_CLIENT_MESSAGE: usize = 16 * 1024;
/// Longest chat line (characters).
pub const MAX_CHAT_CHARS: usize = 500;
/// Longest display name (characters).
pub const MAX_NAME_CHARS: usize = 32;

/// WebSocket close codes the server uses (besides 1000 normal, 1001 going away,
/// 1008 policy violation (flood), 1009 message too big).
pub mod close {
    pub const NORMAL: u16 = 1000;
    pub const GOING_AWAY: u16 = 1001;
    pub const POLICY: u16 = 1008;
    pub const TOO_BIG: u16 = 1009;
    /// Another connection took over this seat (reconnect with the seat token).
    pub const REPLACED: u16 = 4000;
    /// The join was refused (unknown room, wrong token, room full, bad first message).
    pub const JOIN_REFUSED: u16 = 4001;
    /// The room closed (finished and expired, or idle).
    pub const ROOM_CLOSED: u16 = 4002;
    /// The client fell too far behind: its outbound queue overflowed. Reconnect.
    pub const TOO_SLOW: u16 = 4008;
}

/// Options of a new room (`POST /api/rooms`); every field optional.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RoomOptions {
    /// Seats, 3–6.
    pub players: u8,
    /// How many of the seats are bots (the last ones). `bots == players` starts at once.
    pub bots: u8,
    /// The target; when not given, the scenario's (10, 11 for `"frenemies"`, 12 for
    /// `"barbarians"`).
    pub victory_points: Option<u8>,
    /// `null`, `"helpers"` or `"frenemies"`.
    pub scenario: Option<Scenario>,
    /// The Helpers: all remaining helpers in the display.
    pub all_helpers: bool,
    pub tokens: TokenPlacement,
    /// Special Building Phase; default on for 5–6 players.
    pub special_building: Option<bool>,
    /// 5–6 players: `"special_building"` (the default) or `"paired"` (Paired Players, which
    /// replaces the Special Building Phase).
    pub five_six_turns: Option<FiveSixTurns>,
    /// Fix the game seed (all-bot rooms, replays of a known board; rooms with people only
    /// on a server started with `--allow-seed`); random otherwise. A decimal string on the
    /// wire (seeds exceed 2^53); a number is accepted too.
    #[serde(with = "catan_rules::rng::seed_string::option")]
    #[schemars(with = "Option<String>")]
    pub seed: Option<u64>,
    /// How the bot seats play: `"heuristic"` (default) or `"random"`.
    pub bot_level: BotLevel,
    /// Milliseconds a seat has for its turn (or its set-up placement, or its special build
    /// turn) before the server moves for it; time spent waiting on others' reactions is
    /// not counted. `null`: no turn timer. Default 120 000.
    pub turn_limit_ms: Option<u32>,
    /// Milliseconds for a reaction: a discard, an answer to a trade offer or a gift, a
    /// helper's follow-up that is not the current player's own turn. `null`: no timer.
    /// Default 45 000.
    pub reaction_limit_ms: Option<u32>,
    /// Milliseconds a player may be away (no connection) during a game before a bot plays
    /// the seat; reconnecting with the seat token takes it back. `null`: never. Default
    /// 60 000.
    pub away_grace_ms: Option<u32>,
}

/// Default [`RoomOptions::turn_limit_ms`]: long enough to roll, trade and build with some
/// thought; online Catan tables use 1–2 minutes.
pub const DEFAULT_TURN_LIMIT_MS: u32 = 120_000;
/// Default [`RoomOptions::reaction_limit_ms`]: picking discards or answering an offer
/// takes seconds; 45 s leaves room for a slow phone without stalling the table long.
pub const DEFAULT_REACTION_LIMIT_MS: u32 = 45_000;
/// Default [`RoomOptions::away_grace_ms`]: covers a page reload or a network blip, so a
/// bot only steps in for someone who is really gone.
pub const DEFAULT_AWAY_GRACE_MS: u32 = 60_000;
/// The shortest timer a room may ask for (turn, reaction and grace alike), unless the
/// server allows shorter ones for tests (`--allow-short-timers`).
pub const MIN_TIMER_MS: u32 = 5_000;

impl Default for RoomOptions {
    fn default() -> Self {
        RoomOptions {
            players: 4,
            bots: 0,
            victory_points: None,
            scenario: None,
            all_helpers: false,
            tokens: TokenPlacement::Spiral,
            special_building: None,
            five_six_turns: None,
            seed: None,
            bot_level: BotLevel::Heuristic,
            turn_limit_ms: Some(DEFAULT_TURN_LIMIT_MS),
            reaction_limit_ms: Some(DEFAULT_REACTION_LIMIT_MS),
            away_grace_ms: Some(DEFAULT_AWAY_GRACE_MS),
        }
    }
}

impl RoomOptions {
    /// The victory point target: as given, or the scenario's default.
    pub fn target(&self) -> u8 {
        self.victory_points
            .unwrap_or(Scenario::default_victory_points(self.scenario))
    }

    /// The options with every default that depends on others filled in (what a room
    /// echoes back).
    pub fn resolved(mut self) -> RoomOptions {
        self.victory_points = Some(self.target());
        self
    }

    pub fn game_config(&self) -> GameConfig {
        GameConfig {
            players: self.players,
            victory_points: self.target(),
            tokens: self.tokens,
            layout: None,
            special_building: self.special_building,
            five_six_turns: self.five_six_turns,
            scenario: self.scenario,
            all_helpers: self.all_helpers,
        }
    }

    /// The timer options by name (for checks that treat them alike).
    pub fn timers(&self) -> [(&'static str, Option<u32>); 3] {
        [
            ("turn_limit_ms", self.turn_limit_ms),
            ("reaction_limit_ms", self.reaction_limit_ms),
            ("away_grace_ms", self.away_grace_ms),
        ]
    }

    /// The first timer shorter than `min` milliseconds, as a sentence for the client.
    pub fn check_timer_minimum(&self, min: u32) -> Result<(), String> {
        for (name, ms) in self.timers() {
            if let Some(ms) = ms.filter(|&ms| ms < min) {
                return Err(format!(
                    "{name} {ms} is too short: at least {min} ms (or null: off)"
                ));
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), String> {
        let config = self.game_config();
        config.validate().map_err(|e| e.to_string())?;
        let reach = victory_point_range(&config);
        if !reach.contains(&self.target()) {
            return Err(format!(
                "victory_points {} is out of reach: this variant allows {} to {} \
                 (the most one player can hold: 5 settlements + 4 cities, both titles, \
                 every VP card, and in Frenemies the 8 VP markers)",
                self.target(),
                reach.start(),
                reach.end()
            ));
        }
        for (name, ms) in self.timers() {
            if ms == Some(0) {
                return Err(format!("{name} must be at least 1 (or null: off)"));
            }
        }
        if self.bots > self.players {
            return Err(format!(
                "bots ({}) cannot exceed players ({})",
                self.bots, self.players
            ));
        }
        Ok(())
    }
}

/// The body of every HTTP error answer: one sentence for a person.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HttpError {
    pub error: String,
}

/// `POST /api/rooms` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CreatedRoom {
    pub code: String,
    pub room_id: String,
    pub options: RoomOptions,
    /// Where to connect: `ws://host/ws`, then send `join` with the code.
    pub ws_path: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    Lobby,
    Playing,
    Finished,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatInfo {
    pub seat: Seat,
    pub name: Option<String>,
    /// A bot seat from the start.
    pub bot: bool,
    /// The seat's player has a connection open.
    pub connected: bool,
    /// A person's seat in a game under way whose player is not connected.
    #[serde(default)]
    pub away: bool,
    /// A bot plays the seat now: a bot seat, or a person's seat taken over after its
    /// player was away longer than `away_grace_ms` (until the player reconnects).
    #[serde(default)]
    pub controlled_by_bot: bool,
}

/// Public information about a room (`GET /api/rooms/{code}` and `room` messages).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomInfo {
    pub code: String,
    pub room_id: String,
    pub status: RoomStatus,
    pub options: RoomOptions,
    pub seats: Vec<SeatInfo>,
    /// The seat of the room's host (the first player to join), who may add bots and start.
    pub host: Option<Seat>,
    pub spectators: u32,
    pub winner: Option<Seat>,
}

/// Client → server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// First message on a socket. As a player: `name` (a new seat) or `token` (resume a
    /// seat). As a spectator: `spectate: true`.
    Join {
        code: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        spectate: bool,
    },
    /// A game action for the joined seat, checked by the rules.
    Action {
        action: Action,
    },
    Chat {
        text: String,
    },
    /// Ask for a full snapshot (after a gap in `v`).
    Resync,
    /// Host only, in the lobby: fill every open seat with a bot.
    AddBots,
    /// Host only, in the lobby: start once every seat is taken.
    Start,
    Ping,
}

impl ClientMsg {
    /// Every `type` a client may send (for telling an unknown type from a malformed one).
    pub const TYPES: [&'static str; 7] = ["join", "action", "chat", "resync", "add_bots", "start", "ping"];

    pub fn name(&self) -> &'static str {
        match self {
            ClientMsg::Join { .. } => "join",
            ClientMsg::Action { .. } => "action",
            ClientMsg::Chat { .. } => "chat",
            ClientMsg::Resync => "resync",
            ClientMsg::AddBots => "add_bots",
            ClientMsg::Start => "start",
            ClientMsg::Ping => "ping",
        }
    }
}

/// Server → client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `join`: the seat (with its secret token) or spectator status.
    Welcome {
        room: RoomInfo,
        seat: Option<Seat>,
        token: Option<String>,
    },
    /// The room changed (lobby seats, status).
    Room {
        room: RoomInfo,
    },
    /// The whole view of this viewer at version `v`.
    Snapshot {
        v: u64,
        view: serde_json::Value,
    },
    /// RFC 6902 patch from version `v - 1` of this viewer's view to version `v`, and what
    /// happened (redacted for this viewer).
    Update {
        v: u64,
        patch: serde_json::Value,
        events: Vec<Event>,
    },
    /// A request was refused; nothing changed.
    Error {
        request: String,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        rule: Option<RuleError>,
    },
    Chat {
        from: String,
        seat: Option<Seat>,
        text: String,
    },
    Pong,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeds above 2^53 survive a JavaScript client: they are strings on the wire; numbers
    /// are still read; garbage is refused with a readable error.
    #[test]
    fn seeds_are_strings_on_the_wire() {
        let o: RoomOptions = serde_json::from_str(r#"{"seed":"18446744073709551615"}"#).unwrap();
        assert_eq!(o.seed, Some(u64::MAX));
        let json = serde_json::to_value(&o).unwrap();
        assert_eq!(json["seed"], "18446744073709551615");
        let o: RoomOptions = serde_json::from_str(r#"{"seed":42}"#).unwrap();
        assert_eq!(o.seed, Some(42));
        let o: RoomOptions = serde_json::from_str(r#"{"seed":null}"#).unwrap();
        assert_eq!(o.seed, None);
        assert_eq!(
            serde_json::to_value(RoomOptions::default()).unwrap()["seed"],
            serde_json::Value::Null
        );
        let e = serde_json::from_str::<RoomOptions>(r#"{"seed":"soon"}"#).unwrap_err();
        assert!(e.to_string().contains("a seed is a whole number"), "{e}");
    }

    /// Bot seats play heuristically unless the room asks for random bots; an unknown level
    /// is refused, naming the ones there are.
    #[test]
    fn bot_level_defaults_to_heuristic() {
        let o: RoomOptions = serde_json::from_str(r#"{"players":3}"#).unwrap();
        assert_eq!(o.bot_level, BotLevel::Heuristic);
        assert_eq!(serde_json::to_value(&o).unwrap()["bot_level"], "heuristic");
        let o: RoomOptions = serde_json::from_str(r#"{"bot_level":"random"}"#).unwrap();
        assert_eq!(o.bot_level, BotLevel::Random);
        let e = serde_json::from_str::<RoomOptions>(r#"{"bot_level":"clever"}"#).unwrap_err();
        assert!(e.to_string().contains("heuristic"), "{e}");
    }

    /// Timers default on (turn 120 s, reaction 45 s, away grace 60 s); `null` turns one
    /// off; 0 is refused; below the minimum is the server's call (`check_timer_minimum`).
    #[test]
    fn timer_options() {
        let o: RoomOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(o.turn_limit_ms, Some(120_000));
        assert_eq!(o.reaction_limit_ms, Some(45_000));
        assert_eq!(o.away_grace_ms, Some(60_000));
        assert!(o.check_timer_minimum(MIN_TIMER_MS).is_ok());
        let o: RoomOptions =
            serde_json::from_str(r#"{"turn_limit_ms":null,"reaction_limit_ms":null,"away_grace_ms":null}"#)
                .unwrap();
        assert_eq!(o.timers().map(|t| t.1), [None, None, None]);
        assert!(o.validate().is_ok() && o.check_timer_minimum(u32::MAX).is_ok());
        let o: RoomOptions = serde_json::from_str(r#"{"reaction_limit_ms":0}"#).unwrap();
        assert!(o.validate().unwrap_err().contains("reaction_limit_ms"));
        let o: RoomOptions = serde_json::from_str(r#"{"turn_limit_ms":300}"#).unwrap();
        assert!(o.validate().is_ok());
        let e = o.check_timer_minimum(MIN_TIMER_MS).unwrap_err();
        assert!(e.contains("turn_limit_ms 300 is too short"), "{e}");
        assert!(serde_json::from_str::<RoomOptions>(r#"{"turn_limit_ms":-1}"#).is_err());
    }

    #[test]
    fn client_messages_parse() {
        let m: ClientMsg = serde_json::from_str(r#"{"type":"join","code":"ABCDEFG","name":"Ann"}"#).unwrap();
        assert!(matches!(m, ClientMsg::Join { spectate: false, .. }));
        let m: ClientMsg =
            serde_json::from_str(r#"{"type":"action","action":{"type":"roll_dice"}}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Action {
                action: Action::RollDice
            }
        );
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"dance"}"#).is_err());
    }

    #[test]
    fn types_list_matches_the_messages() {
        let all = [
            ClientMsg::Join {
                code: String::new(),
                name: None,
                token: None,
                spectate: false,
            },
            ClientMsg::Action {
                action: Action::RollDice,
            },
            ClientMsg::Chat { text: String::new() },
            ClientMsg::Resync,
            ClientMsg::AddBots,
            ClientMsg::Start,
            ClientMsg::Ping,
        ];
        let names: Vec<&str> = all.iter().map(|m| m.name()).collect();
        assert_eq!(names, ClientMsg::TYPES);
        for m in &all {
            assert_eq!(serde_json::to_value(m).unwrap()["type"], m.name());
        }
    }

    #[test]
    fn room_options_default_and_validate() {
        let o: RoomOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(o, RoomOptions::default());
        let o: RoomOptions = serde_json::from_str(r#"{"players":5,"scenario":"helpers"}"#).unwrap();
        assert!(o.validate().is_ok());
        let o: RoomOptions = serde_json::from_str(r#"{"players":3,"scenario":"frenemies"}"#).unwrap();
        assert!(o.validate().is_ok());
        assert_eq!(o.game_config().victory_points, 11);
        assert_eq!(o.clone().resolved().victory_points, Some(11));
        let o: RoomOptions =
            serde_json::from_str(r#"{"players":6,"scenario":"frenemies","victory_points":12}"#).unwrap();
        assert_eq!(o.game_config().victory_points, 12);
        assert_eq!(RoomOptions::default().game_config().victory_points, 10);
        let o: RoomOptions = serde_json::from_str(r#"{"players":7}"#).unwrap();
        assert!(o.validate().is_err());
        assert!(serde_json::from_str::<RoomOptions>(r#"{"colour":1}"#).is_err());
        let o = RoomOptions {
            victory_points: Some(23),
            ..RoomOptions::default()
        };
        assert!(o.validate().unwrap_err().contains("out of reach"));
        let o = RoomOptions {
            victory_points: Some(22),
            ..RoomOptions::default()
        };
        assert!(o.validate().is_ok());
    }

    #[test]
    fn five_six_turns_option() {
        let o: RoomOptions = serde_json::from_str(r#"{"players":6,"five_six_turns":"paired"}"#).unwrap();
        assert!(o.validate().is_ok());
        assert!(o.game_config().paired_players());
        assert!(!o.game_config().special_building());
        let o: RoomOptions =
            serde_json::from_str(r#"{"players":5,"five_six_turns":"special_building"}"#).unwrap();
        assert!(o.validate().is_ok() && o.game_config().special_building());
        let o: RoomOptions = serde_json::from_str(r#"{"players":4,"five_six_turns":"paired"}"#).unwrap();
        assert!(o.validate().unwrap_err().contains("needs 5 or 6 players"));
        let o: RoomOptions =
            serde_json::from_str(r#"{"players":5,"five_six_turns":"paired","special_building":true}"#)
                .unwrap();
        assert!(o
            .validate()
            .unwrap_err()
            .contains("replaces the Special Building Phase"));
        assert!(serde_json::from_str::<RoomOptions>(r#"{"five_six_turns":"both"}"#).is_err());
    }
}
