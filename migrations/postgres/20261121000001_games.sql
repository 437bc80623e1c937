-- Finished games: enough to list them, show their result and replay them exactly
-- (config + seed + action log through the rules crate). Times are unix milliseconds.
-- Integers are BIGINT and flags are 0/1 so that the same sqlx `Any` code reads both
-- this schema and the SQLite one (migrations/sqlite/).

CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    code          TEXT NOT NULL,                 -- invite code of the room
    variant       TEXT NOT NULL,                 -- "base", "5-6", "helpers", ...
    config        TEXT NOT NULL,                 -- catan_rules::GameConfig as JSON
    player_count  BIGINT NOT NULL,
    seed          BIGINT NOT NULL,               -- the u64 seed, bit-cast to i64
    rules_version TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
    winner        BIGINT,                        -- seat of the winner, if any
    action_count  BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    started_at    BIGINT,
    finished_at   BIGINT NOT NULL
);

CREATE INDEX games_recent ON games (finished_at DESC, id DESC);
CREATE INDEX games_code ON games (code);

CREATE TABLE game_players (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     BIGINT NOT NULL,
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    final_vp BIGINT NOT NULL,
    won      BIGINT NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE game_actions (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx     BIGINT NOT NULL,                     -- 0-based position in the log
    seat    BIGINT NOT NULL,
    action  TEXT NOT NULL,                       -- catan_rules::Action as JSON
    at_ms   BIGINT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
