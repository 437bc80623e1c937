-- A finished game's action log in one column of its `games` row (a JSON array of
-- {"index", "seat", "action", "at_ms"} in the order applied, as the store's
-- ActionRecord serializes), instead of one `game_actions` row per action. TEXT, like
-- `config`, so that the same sqlx `Any` code reads it here and in SQLite
-- (migrations/sqlite/ has the same change).
--
-- Why: a finished game is written once and read whole (a replay needs every action in
-- order), never an action at a time. As rows, storing a game of about a thousand actions
-- was a thousand index inserts with five bound parameters each; as one value it is one
-- insert, and a replay reads one row. The journal (`live_actions`) keeps a row per
-- action: it is appended to one action at a time while the game is played.

ALTER TABLE games ADD COLUMN actions TEXT NOT NULL DEFAULT '[]';

UPDATE games SET actions = COALESCE((
    SELECT json_agg(json_build_object('index', idx, 'seat', seat, 'action', action::json, 'at_ms', at_ms) ORDER BY idx)::text
    FROM game_actions WHERE game_actions.game_id = games.id
), '[]');

DROP TABLE game_actions;
