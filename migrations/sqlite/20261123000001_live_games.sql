-- The journal of live games: a game in progress is written when it starts (room, seed,
-- seats) and every accepted action is appended, so that a restarted server replays each
-- unfinished game (seed + actions through the rules crate) and reopens its room under the
-- same invite code. When the game ends it becomes a row of `games` (finished or
-- abandoned) and its journal rows are deleted in the same transaction.
-- Same conventions as the games tables: unix milliseconds, 64-bit integers, 0/1 flags.

CREATE TABLE live_games (
    id            TEXT PRIMARY KEY,              -- the room id (a UUID): the finished game's id later
    code          TEXT NOT NULL,                 -- invite code, reused on resume
    options       TEXT NOT NULL,                 -- the room's options as JSON (the server's RoomOptions)
    config        TEXT NOT NULL,                 -- catan_rules::GameConfig as JSON
    seed          INTEGER NOT NULL,               -- the u64 seed, bit-cast to i64
    rules_version TEXT NOT NULL,
    host          INTEGER,                        -- seat of the room's host, if any
    created_at    INTEGER NOT NULL,
    started_at    INTEGER NOT NULL
);

CREATE TABLE live_seats (
    game_id    TEXT NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    bot        INTEGER NOT NULL CHECK (bot IN (0, 1)),
    -- SHA-256 of the seat token, hex: the token itself is never stored. NULL for bots.
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE live_actions (
    game_id TEXT NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,                     -- 0-based position in the log
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,                       -- catan_rules::Action as JSON
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);
