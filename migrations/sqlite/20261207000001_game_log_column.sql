-- A finished game's action log in one column of its `games` row (a JSON array of
-- {"index", "seat", "action", "at_ms"} in the order applied, as the store's
-- ActionRecord serializes), instead of one `game_actions` row per action.
--
-- Why: a finished game is written once and read whole (a replay needs every action in
-- order), never an action at a time. As rows, storing a game of about a thousand actions
-- was a thousand B-tree inserts (the table's and its key's), five bound parameters each:
-- about 6 % of the server's CPU under the load command (README, "Load"), on the thread
-- that also commits the journal. As one value it is one insert, and a replay reads one
-- row. The journal (`live_actions`) keeps a row per action: it is appended to one action
-- at a time while the game is played.

ALTER TABLE games ADD COLUMN actions TEXT NOT NULL DEFAULT '[]';

UPDATE games SET actions = (
    SELECT json_group_array(json_object('index', idx, 'seat', seat, 'action', json(action), 'at_ms', at_ms) ORDER BY idx)
    FROM game_actions WHERE game_actions.game_id = games.id
);

DROP TABLE game_actions;
