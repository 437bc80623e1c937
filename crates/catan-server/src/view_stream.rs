//! One viewer's stream of views: the version it is at and the serialized view it last
//! received, and the wire texts that move it on (a snapshot, or an update carrying a
//! patch). IO-free, so the per-action broadcast path can be benchmarked on its own
//! (`benches/broadcast.rs`).
//!
//! Per action and viewer the cost is: project the typed view, serialize it once with
//! serde (no `Value` tree), diff the text against the last one ([`crate::diff`]: unchanged
//! subtrees are one `memcmp`), and write the update text once; spectators share one
//! stream, so their update is built and serialized once for all of them.

use crate::diff::Doc;
use axum::extract::ws::Utf8Bytes;
use catan_protocol::ServerMsg;
use catan_rules::{redact, Event, Game, Viewer};

#[derive(Debug)]
pub struct ViewStream {
    pub viewer: Viewer,
    /// Version of the last view sent.
    pub v: u64,
    /// The last view sent, serialized without the fixed board (which only snapshots carry).
    last: Option<Doc>,
}

impl ViewStream {
    pub fn new(viewer: Viewer) -> Self {
        ViewStream {
            viewer,
            v: 0,
            last: None,
        }
    }

    /// Whether the stream has a view to diff against (a snapshot was sent since the last
    /// [`ViewStream::reset`]).
    pub fn started(&self) -> bool {
        self.last.is_some()
    }

    /// Forgets the last view (its viewer left); the next message must be a snapshot.
    pub fn reset(&mut self) {
        self.last = None;
    }

    /// The snapshot message at the current version; updates continue from it.
    pub fn snapshot(&mut self, game: &Game) -> Utf8Bytes {
        let mut view = game.view_state(self.viewer);
        self.last = Some(Doc::new(serde_json::to_string(&view).expect("views serialize")));
        view.board = Some(game.board_view());
        let view = serde_json::to_value(view).expect("views serialize");
        crate::room::text(&ServerMsg::Snapshot { v: self.v, view })
    }

    /// After an action: the next version's update message (patch from the last view and
    /// `events` redacted for this viewer), or `None` when the stream has not started.
    pub fn update(&mut self, game: &Game, events: &[Event]) -> Option<Utf8Bytes> {
        let last = self.last.as_ref()?;
        let view = Doc::new(serde_json::to_string(&game.view_state(self.viewer)).expect("views serialize"));
        self.v += 1;
        let msg = update_text(self.v, last, &view, events, self.viewer);
        self.last = Some(view);
        Some(msg.into())
    }
}

/// `ServerMsg::Update` as text, written directly: the patch is already JSON text, so it
/// is not parsed into a `Value` only to be printed again. (The same JSON as serde writes
/// for the message, up to key order inside patch values: see the test.)
fn update_text(v: u64, old: &Doc, new: &Doc, events: &[Event], viewer: Viewer) -> String {
    let mut out = String::with_capacity(128 + events.len() * 64);
    out.push_str("{\"type\":\"update\",\"v\":");
    out.push_str(&v.to_string());
    out.push_str(",\"patch\":[");
    crate::diff::diff_into(old, new, &mut out);
    out.push_str("],\"events\":");
    let redacted: Vec<Event> = events.iter().map(|e| redact(e, viewer)).collect();
    // Safe: writing into a String cannot fail, and events serialize.
    out.push_str(&serde_json::to_string(&redacted).expect("events serialize"));
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_bots::RandomBot;
    use catan_rules::GameConfig;

    #[test]
    fn update_text_is_the_update_message_serde_would_write() {
        let mut game = Game::new(GameConfig::default(), 7).unwrap();
        let mut bot = RandomBot::new(7);
        let mut stream = ViewStream::new(Viewer::Seat(0));
        assert!(stream.update(&game, &[]).is_none(), "no update before a snapshot");
        let _ = stream.snapshot(&game);
        for _ in 0..30 {
            let seat = game.waiting_on().iter().next().unwrap();
            let action = bot.choose(&game, seat).unwrap();
            let before = serde_json::to_value(game.view_state(Viewer::Seat(0))).unwrap();
            let events = game.apply(seat, action).unwrap();
            let text = stream.update(&game, &events).unwrap();
            let ServerMsg::Update {
                v,
                patch,
                events: got,
            } = serde_json::from_str(&text).unwrap()
            else {
                panic!("not an update: {text}")
            };
            let expected_events: Vec<Event> = events.iter().map(|e| redact(e, Viewer::Seat(0))).collect();
            assert_eq!(got, expected_events);
            let by_serde = serde_json::to_value(ServerMsg::Update {
                v,
                patch: patch.clone(),
                events: got,
            })
            .unwrap();
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).unwrap(),
                by_serde
            );
            let mut doc = before;
            json_patch::patch(
                &mut doc,
                &serde_json::from_value::<json_patch::Patch>(patch).unwrap(),
            )
            .unwrap();
            assert_eq!(
                doc,
                serde_json::to_value(game.view_state(Viewer::Seat(0))).unwrap()
            );
            assert_eq!(v, stream.v);
        }
    }
}
