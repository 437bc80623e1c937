//! One viewer's stream of views: the version it is at and the view it last received, and
//! the wire texts that move it on (a snapshot, or an update carrying a patch). IO-free, so
//! the per-action broadcast path can be benchmarked on its own (`benches/broadcast.rs`).
//!
//! The views are kept typed, never as JSON: a stream holds the public (spectator's) view
//! it was last sent (shared, behind an `Arc`, by every viewer sent the same one) and, for
//! a seat, the seat's own parts ([`SeatParts`]). A patch is written part by part: each
//! top-level field of the view, and each entry of `players`, is compared typed
//! (`PartialEq`) with the same part of the view last sent, and only a part that changed
//! is recorded as a [`Tape`] (old and new) and diffed ([`crate::diff`]); its operations
//! have the same paths as over the whole view, so the wire stays RFC 6902 JSON Patch
//! against the view the client holds. Most parts do not change in an action, and they
//! cost one comparison.
//!
//! Why a [`Frame`]: after one action the viewers' views are nearly the same. The public
//! view's diff is computed **once** (per distinct view the viewers last received), and
//! every viewer's patch reuses its operations; only the parts of a seat's view that come
//! from the seat itself (its own player entry with the hand, its legal actions, a
//! scenario's private part) are diffed per seat. The rules say which parts those are
//! ([`Game::seat_parts`]; their property test checks that the public view overlaid with
//! them is the seat's view). A seat's legal actions go out whole when they change
//! ([`Part::replaced_whole`]). Events are redacted and serialized once unless a viewer's
//! redaction differs.

use crate::diff::PatchWriter;
use crate::tape::Tape;
use catan_protocol::ServerMsg;
use catan_rules::view::PlayerView;
use catan_rules::{redact, Event, Game, Seat, SeatParts, View, Viewer};
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::Arc;
use tokio_tungstenite::tungstenite::Utf8Bytes;

/// The top-level fields of a view (and the ones the server adds), each diffed as one part
/// but for `players`, whose entries are: the enum, their names on the wire, and their
/// order (serde's for the view's fields, then the server's).
macro_rules! fields {
    ($($field:ident = $name:expr),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Field {
            $($field),*
        }

        impl Field {
            const ALL: &'static [Field] = &[$(Field::$field),*];

            fn name(self) -> &'static str {
                match self {
                    $(Field::$field => $name),*
                }
            }
        }
    };
}

fields! {
    Viewer = "viewer",
    Config = "config",
    Robber = "robber",
    Buildings = "buildings",
    Roads = "roads",
    // `players` goes here: its entries are parts of their own.
    Bank = "bank",
    DeckSize = "deck_size",
    Phase = "phase",
    Current = "current",
    Turn = "turn",
    Dice = "dice",
    DevelopmentCardPlayed = "development_card_played",
    Paired = "paired",
    Offer = "offer",
    LongestRoad = "longest_road",
    LargestArmy = "largest_army",
    Winner = "winner",
    WaitingOn = "waiting_on",
    Legal = "legal",
    Helpers = "helpers",
    Frenemies = "frenemies",
    Barbarians = "barbarians",
    Deadline = DEADLINE,
    Away = AWAY,
    BotControlled = BOT_CONTROLLED,
}

/// A part of a view diffed on its own: a top-level field, or one entry of `players`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Field(Field),
    Player(u8),
    /// Entries of `players` beyond the new view's count, removed last first (never within
    /// one game: a new game starts with snapshots).
    PlayersGone,
}

/// A new field of [`View`] is a compile error here until it is given a part (a [`Field`]
/// in `fields!`, its arm in [`diff_public`] and, if a seat sees it otherwise, in
/// [`diff_seat`]).
fn _every_view_field_has_a_part(v: &View) {
    let View {
        viewer: _,
        config: _,
        board: _, // never in `view_state`: the fixed board travels in snapshots only
        robber: _,
        buildings: _,
        roads: _,
        players: _,
        bank: _,
        deck_size: _,
        phase: _,
        current: _,
        turn: _,
        dice: _,
        development_card_played: _,
        paired: _,
        offer: _,
        longest_road: _,
        largest_army: _,
        winner: _,
        waiting_on: _,
        legal: _,
        helpers: _,
        frenemies: _,
        barbarians: _,
    } = v;
}

impl Part {
    /// Whether a changed part goes out as one `replace` of its whole value instead of a
    /// diff. A seat's legal actions are a list the rules build afresh after every action
    /// (the acting seat's changes with nearly every one, and its entries shift), so a diff
    /// seldom finds less to send than the whole: on 2,000 actions of recorded games
    /// (`examples/broadcast_replay`) walking it cost 12.6 k instructions per action, a
    /// ninth of the broadcast path then, to save 0.9 % of the bytes of the updates.
    fn replaced_whole(self) -> bool {
        self == Part::Field(Field::Legal)
    }

    /// The part's JSON Pointer (field names need no escaping).
    fn path(self, out: &mut String) {
        out.clear();
        match self {
            Part::Field(f) => {
                out.push('/');
                out.push_str(f.name());
            }
            Part::Player(i) => {
                let _ = write!(out, "/players/{i}");
            }
            // Written entry by entry ([`diff_public`]).
            Part::PlayersGone => out.push_str("/players"),
        }
    }
}

/// Every part of a view with `players` players, in the order serde writes the view's
/// fields (the players after the roads), then the server's.
fn parts(players: usize, out: &mut Vec<Part>) {
    out.clear();
    for &f in Field::ALL {
        out.push(Part::Field(f));
        if f == Field::Roads {
            out.extend((0..players as u8).map(Part::Player));
        }
    }
    out.push(Part::PlayersGone);
}

/// The view field the server adds (not the rules, which have no clock): when the seats in
/// `waiting_on` will be moved for, in epoch milliseconds; absent with no timer running.
pub const DEADLINE: &str = "deadline_ms";
/// The view field listing the seats whose player is away (a person's seat with no
/// connection during the game); absent when none is.
pub const AWAY: &str = "away";
/// The view field listing the seats a bot moves for (bot seats and seats taken over from
/// away players); absent when none is.
pub const BOT_CONTROLLED: &str = "bot_controlled";

/// The fields the server adds to every viewer's view (the same in all of them): the rules
/// know nothing of clocks or connections. Each is absent from the view when empty, so a
/// game without timers, bots or absences has the rules' view unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerFields {
    pub deadline_ms: Option<i64>,
    /// In seat order.
    pub away: Vec<Seat>,
    /// In seat order.
    pub bot_controlled: Vec<Seat>,
}

impl ServerFields {
    /// The fields present, in the view's order, as JSON values.
    fn each(&self, mut f: impl FnMut(&'static str, serde_json::Value)) {
        if let Some(d) = self.deadline_ms {
            f(DEADLINE, d.into());
        }
        if let Some(away) = present(&self.away) {
            f(AWAY, away.clone().into());
        }
        if let Some(bots) = present(&self.bot_controlled) {
            f(BOT_CONTROLLED, bots.clone().into());
        }
    }
}

/// A list of seats as a view field: absent when empty.
fn present(seats: &Vec<Seat>) -> Option<&Vec<Seat>> {
    (!seats.is_empty()).then_some(seats)
}

/// The public (spectator's) view as sent, with the server's fields.
#[derive(Debug)]
struct Public {
    view: View,
    server: ServerFields,
}

/// Buffers kept from one part to the next and one action to the next (per thread, see
/// [`Frame`]): the two versions of a changed part as tapes, a value's JSON text, its path,
/// and the patch writer's path.
#[derive(Default)]
struct Scratch {
    old: Tape,
    new: Tape,
    json: Vec<u8>,
    path: String,
    writer_path: String,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl Scratch {
    /// The operations from `old` to `new` at `part` (`None`: absent from the view).
    fn values<T: Serialize + PartialEq + ?Sized>(
        &mut self,
        w: &mut PatchWriter<'_>,
        part: Part,
        old: Option<&T>,
        new: Option<&T>,
    ) {
        match (old, new) {
            (None, None) => {}
            (Some(o), Some(n)) => {
                if o == n {
                    return;
                }
                part.path(&mut self.path);
                if part.replaced_whole() {
                    self.set(w, n, true);
                } else {
                    self.diff(w, o, n);
                }
            }
            (None, Some(n)) => {
                part.path(&mut self.path);
                self.set(w, n, false);
            }
            (Some(_), None) => {
                part.path(&mut self.path);
                w.remove_at(&self.path);
            }
        }
    }

    /// The operations from `old` to `new` at `self.path`, through their tapes.
    fn diff<T: Serialize + ?Sized>(&mut self, w: &mut PatchWriter<'_>, old: &T, new: &T) {
        self.old.record(old).expect("views serialize");
        self.new.record(new).expect("views serialize");
        w.diff_at(&self.path, &self.old, &self.new);
    }

    /// The operations from `old` to `new` for an entry of `players`, member by member,
    /// typed: a number that changed is one `replace`; the hand and the development cards
    /// (objects of five numbers) are diffed through their tapes, as any other part.
    ///
    /// Why not the whole entry through tapes, as the other parts: an entry is some sixty
    /// tokens, and a changed one (1.7 per action: the acting player's, and its own copy in
    /// its seat's view) was most of the tokens recorded and walked per action, when one to
    /// four of its members changed. The patches are the same operations but for the
    /// numbers, whose walk could only ever replace them.
    fn player(
        &mut self,
        w: &mut PatchWriter<'_>,
        part: Part,
        old: Option<&PlayerView>,
        new: Option<&PlayerView>,
    ) {
        let (Some(o), Some(n)) = (old, new) else {
            return self.values(w, part, old, new);
        };
        if o == n {
            return;
        }
        part.path(&mut self.path);
        let at = self.path.len();
        // Every member, in serde's order (a new member of `PlayerView` is a compile error
        // here until it is listed): numbers replaced, objects diffed.
        macro_rules! members {
            ($($m:ident: $how:ident),* $(,)?) => {
                let PlayerView { $($m: _),* } = n;
                $(
                    if o.$m != n.$m {
                        self.path.truncate(at);
                        self.path.push_str(concat!("/", stringify!($m)));
                        members!(@$how $m);
                    }
                )*
            };
            (@number $m:ident) => { self.set(w, &n.$m, true) };
            (@object $m:ident) => { self.diff(w, &o.$m, &n.$m) };
        }
        members!(
            seat: number,
            resource_count: number,
            development_count: number,
            knights_played: number,
            played_development_cards: object,
            roads_left: number,
            settlements_left: number,
            cities_left: number,
            road_length: number,
            public_victory_points: number,
            discard_pending: number,
            hand: object,
            development_cards: object,
            new_development_cards: object,
            victory_points: number,
            victory_point_cards: number,
        );
    }

    /// One `add` (`replace` if `replace`) of `value` at `self.path`, serialized straight
    /// to JSON (no tape: nothing to compare).
    fn set<T: Serialize + ?Sized>(&mut self, w: &mut PatchWriter<'_>, value: &T, replace: bool) {
        self.json.clear();
        serde_json::to_writer(&mut self.json, value).expect("views serialize");
        let text = std::str::from_utf8(&self.json).expect("serde_json writes UTF-8");
        w.set_at(&self.path, text, replace);
    }
}

/// The operations turning `part` of the public view `old` into that of `new`.
fn diff_public(part: Part, old: &Public, new: &Public, w: &mut PatchWriter<'_>, s: &mut Scratch) {
    let (o, n) = (&old.view, &new.view);
    let field = match part {
        Part::Field(f) => f,
        Part::Player(i) => return s.player(w, part, o.players.get(i as usize), n.players.get(i as usize)),
        Part::PlayersGone => {
            for i in (n.players.len()..o.players.len()).rev() {
                Part::Player(i as u8).path(&mut s.path);
                w.remove_at(&s.path);
            }
            return;
        }
    };
    macro_rules! same_field {
        ($f:ident) => {
            s.values(w, part, Some(&o.$f), Some(&n.$f))
        };
    }
    match field {
        Field::Viewer => same_field!(viewer),
        Field::Config => same_field!(config),
        Field::Robber => same_field!(robber),
        Field::Buildings => same_field!(buildings),
        Field::Roads => same_field!(roads),
        Field::Bank => same_field!(bank),
        Field::DeckSize => same_field!(deck_size),
        Field::Phase => same_field!(phase),
        Field::Current => same_field!(current),
        Field::Turn => same_field!(turn),
        Field::Dice => same_field!(dice),
        Field::DevelopmentCardPlayed => same_field!(development_card_played),
        Field::Paired => same_field!(paired),
        Field::Offer => same_field!(offer),
        Field::LongestRoad => same_field!(longest_road),
        Field::LargestArmy => same_field!(largest_army),
        Field::Winner => same_field!(winner),
        Field::WaitingOn => same_field!(waiting_on),
        Field::Legal => same_field!(legal),
        Field::Helpers => same_field!(helpers),
        // Absent from the view when not played.
        Field::Frenemies => s.values(w, part, o.frenemies.as_ref(), n.frenemies.as_ref()),
        Field::Barbarians => s.values(w, part, o.barbarians.as_ref(), n.barbarians.as_ref()),
        Field::Deadline => s.values(
            w,
            part,
            old.server.deadline_ms.as_ref(),
            new.server.deadline_ms.as_ref(),
        ),
        Field::Away => s.values(w, part, present(&old.server.away), present(&new.server.away)),
        Field::BotControlled => s.values(
            w,
            part,
            present(&old.server.bot_controlled),
            present(&new.server.bot_controlled),
        ),
    }
}

/// For seat `seat`'s view, the operations turning `part` of the old view (the public view
/// `old.0` overlaid with the seat's parts `old.1`) into that of the new one, when the part
/// is the seat's own; `false` for a part the seat sees as the public view has it.
fn diff_seat(
    part: Part,
    seat: Seat,
    old: (&Public, &SeatParts),
    new: (&Public, &SeatParts),
    w: &mut PatchWriter<'_>,
    s: &mut Scratch,
) -> bool {
    match part {
        // Always the seat itself.
        Part::Field(Field::Viewer) => {}
        Part::Player(i) if i == seat => s.player(w, part, Some(&old.1.player), Some(&new.1.player)),
        Part::Field(Field::Legal) => s.values(w, part, Some(&old.1.legal), Some(&new.1.legal)),
        // The seat's own, where it differs from the spectator's (see `View::overlay`).
        Part::Field(Field::Helpers) => {
            let o = old.1.helpers.as_ref().or(old.0.view.helpers.as_ref());
            let n = new.1.helpers.as_ref().or(new.0.view.helpers.as_ref());
            s.values(w, part, Some(&o), Some(&n));
        }
        Part::Field(Field::Frenemies) => {
            let o = old.1.frenemies.as_ref().or(old.0.view.frenemies.as_ref());
            let n = new.1.frenemies.as_ref().or(new.0.view.frenemies.as_ref());
            s.values(w, part, o, n);
        }
        _ => return false,
    }
    true
}

/// A view as sent: the shared public view with, for a seat, the seat's own parts over it.
#[derive(Debug)]
struct Sent {
    public: Arc<Public>,
    seat: Option<SeatParts>,
}

/// The public diff from one base to the frame's public view: for each part (in the
/// frame's [`parts`] order), its operations (a range of `ops`) and their count.
struct SharedDiff {
    base: Arc<Public>,
    ops: String,
    count: usize,
    per_part: Vec<(u32, u32, u32)>,
}

/// Everything the viewers' updates after one action (or a round of snapshots) share. Its
/// scratch buffers are the thread's, taken when it is made and given back when it is
/// dropped, so that writing the patches allocates nothing once they have grown.
pub struct Frame<'g> {
    game: &'g Game,
    public: Arc<Public>,
    events: &'g [Event],
    public_events: Vec<Event>,
    public_events_text: String,
    parts: Vec<Part>,
    diffs: Vec<SharedDiff>,
    scratch: Scratch,
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        let scratch = std::mem::take(&mut self.scratch);
        SCRATCH.with(|s| *s.borrow_mut() = scratch);
    }
}

impl<'g> Frame<'g> {
    /// The frame after an action that produced `events` (none for snapshots).
    pub fn new(game: &'g Game, events: &'g [Event]) -> Self {
        Frame::with_deadline(game, events, None)
    }

    /// [`Frame::new`] with the turn timer's deadline, which every viewer's view carries.
    pub fn with_deadline(game: &'g Game, events: &'g [Event], deadline_ms: Option<i64>) -> Self {
        let server = ServerFields {
            deadline_ms,
            ..ServerFields::default()
        };
        Frame::with_server(game, events, server)
    }

    /// [`Frame::new`] with the fields the server adds to every viewer's view.
    pub fn with_server(game: &'g Game, events: &'g [Event], server: ServerFields) -> Self {
        let view = game.view_state(Viewer::Spectator);
        let mut all = Vec::with_capacity(32);
        parts(view.players.len(), &mut all);
        let public_events: Vec<Event> = events.iter().map(|e| redact(e, Viewer::Spectator)).collect();
        let public_events_text = serde_json::to_string(&public_events).expect("events serialize");
        Frame {
            game,
            public: Arc::new(Public { view, server }),
            events,
            public_events,
            public_events_text,
            parts: all,
            diffs: Vec::new(),
            scratch: SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut())),
        }
    }

    /// The seat's own parts now (`None` for a spectator).
    fn seat_parts(&self, viewer: Viewer) -> Option<SeatParts> {
        match viewer {
            Viewer::Seat(seat) => Some(self.game.seat_parts(seat)),
            Viewer::Spectator => None,
        }
    }

    /// The public diff from `base` (computed once per distinct base).
    fn shared_diff(&mut self, base: &Arc<Public>) -> usize {
        if let Some(i) = self.diffs.iter().position(|d| Arc::ptr_eq(&d.base, base)) {
            return i;
        }
        let mut ops = String::with_capacity(512);
        let mut per_part = Vec::with_capacity(self.parts.len());
        let mut w = PatchWriter::with_scratch(&mut ops, std::mem::take(&mut self.scratch.writer_path));
        for &part in &self.parts {
            let (len, before) = (w.len(), w.ops());
            diff_public(part, base, &self.public, &mut w, &mut self.scratch);
            let count = w.ops() - before;
            // The operations start after the comma separating them from earlier ones.
            let start = if count > 0 && before > 0 { len + 1 } else { len };
            per_part.push((start as u32, w.len() as u32, count as u32));
        }
        let count = w.ops();
        self.scratch.writer_path = w.into_scratch();
        self.diffs.push(SharedDiff {
            base: base.clone(),
            ops,
            count,
            per_part,
        });
        self.diffs.len() - 1
    }

    /// The events as `viewer` may see them, as JSON text.
    fn events_text(&self, viewer: Viewer) -> std::borrow::Cow<'_, str> {
        let public = (self.events.iter().zip(&self.public_events)).all(|(e, p)| redact(e, viewer) == *p);
        if public {
            self.public_events_text.as_str().into()
        } else {
            let redacted: Vec<Event> = self.events.iter().map(|e| redact(e, viewer)).collect();
            serde_json::to_string(&redacted).expect("events serialize").into()
        }
    }
}

#[derive(Debug)]
pub struct ViewStream {
    pub viewer: Viewer,
    /// Version of the last view sent.
    pub v: u64,
    /// The last view sent, without the fixed board (which only snapshots carry).
    last: Option<Sent>,
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

    /// Counts an update this stream could not be sent (it has no view to patch): its
    /// next snapshot comes at the version the others are at.
    pub fn skip(&mut self) {
        if self.last.is_none() {
            self.v += 1;
        }
    }

    /// The snapshot message at the current version; updates continue from it.
    pub fn snapshot(&mut self, frame: &mut Frame<'_>) -> Utf8Bytes {
        let view = frame.game.view(self.viewer);
        self.last = Some(Sent {
            public: frame.public.clone(),
            seat: frame.seat_parts(self.viewer),
        });
        let mut view = serde_json::to_value(view).expect("views serialize");
        if let Some(map) = view.as_object_mut() {
            frame.public.server.each(|key, value| {
                map.insert(key.into(), value);
            });
        }
        crate::room::text(&ServerMsg::Snapshot { v: self.v, view })
    }

    /// After an action: the next version's update message (patch from the last view and
    /// the frame's events redacted for this viewer), or `None` when the stream has not
    /// started.
    pub fn update(&mut self, frame: &mut Frame<'_>) -> Option<Utf8Bytes> {
        let last = self.last.as_ref()?;
        let seat = frame.seat_parts(self.viewer);
        self.v += 1;
        let shared = frame.shared_diff(&last.public);
        // Room for the whole message, so that it is written without growing: the shared
        // operations, a few of the seat's own, the events.
        let room = frame.diffs[shared].ops.len() + 512 + frame.public_events_text.len();
        let mut out = String::with_capacity(room);
        out.push_str("{\"type\":\"update\",\"v\":");
        out.push_str(itoa::Buffer::new().format(self.v));
        out.push_str(",\"patch\":[");
        write_patch(frame, shared, self.viewer, last, seat.as_ref(), &mut out);
        out.push_str("],\"events\":");
        out.push_str(&frame.events_text(self.viewer));
        out.push('}');
        self.last = Some(Sent {
            public: frame.public.clone(),
            seat,
        });
        Some(out.into())
    }
}

/// The patch from the view `old` to the frame's public view overlaid with `seat` (the
/// viewer's own parts now, for a seat); `shared` is the frame's public diff from `old`'s
/// public view ([`Frame::shared_diff`]).
fn write_patch(
    frame: &mut Frame<'_>,
    shared: usize,
    viewer: Viewer,
    old: &Sent,
    seat: Option<&SeatParts>,
    out: &mut String,
) {
    let Frame {
        public,
        parts,
        diffs,
        scratch,
        ..
    } = frame;
    let shared = &diffs[shared];
    let mut w = PatchWriter::with_scratch(out, std::mem::take(&mut scratch.writer_path));
    match (viewer, old.seat.as_ref(), seat) {
        (Viewer::Seat(s), Some(old_seat), Some(new_seat)) => {
            for (&part, &(start, end, count)) in parts.iter().zip(&shared.per_part) {
                let own = diff_seat(
                    part,
                    s,
                    (&old.public, old_seat),
                    (public, new_seat),
                    &mut w,
                    scratch,
                );
                if !own {
                    w.append(&shared.ops[start as usize..end as usize], count as usize);
                }
            }
        }
        // The spectator's view is the public view.
        _ => w.append(&shared.ops, shared.count),
    }
    scratch.writer_path = w.into_scratch();
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_bots::RandomBot;
    use catan_rules::GameConfig;

    /// Each stream's first snapshot, as the view its client holds.
    fn first_snapshots(streams: &mut [ViewStream], game: &Game) -> Vec<serde_json::Value> {
        streams
            .iter_mut()
            .map(|s| {
                let text = s.snapshot(&mut Frame::new(game, &[]));
                let ServerMsg::Snapshot { view, .. } = serde_json::from_str(&text).unwrap() else {
                    panic!("not a snapshot")
                };
                view
            })
            .collect()
    }

    /// Each patched view equals a fresh snapshot for its viewer from `frame`.
    fn assert_fresh_snapshots(
        streams: &[ViewStream],
        docs: &[serde_json::Value],
        frame: &mut Frame<'_>,
        step: impl std::fmt::Display,
    ) {
        for (stream, doc) in streams.iter().zip(docs) {
            let text = ViewStream::new(stream.viewer).snapshot(frame);
            let ServerMsg::Snapshot { mut view, .. } = serde_json::from_str(&text).unwrap() else {
                panic!("not a snapshot")
            };
            // Snapshots carry the fixed board, patched views keep the first one's.
            view["board"] = doc["board"].clone();
            assert_eq!(&view, doc, "step {step}");
        }
    }

    /// A seat's legal actions go out whole ([`Part::replaced_whole`]): a patch touches
    /// `/legal` only with one `replace` of all of it, only when it changed, and the
    /// patched view still equals the snapshot.
    #[test]
    fn legal_actions_are_replaced_whole_and_only_when_changed() {
        let mut game = Game::new(GameConfig::default(), 5).unwrap();
        let mut bot = RandomBot::new(5);
        let viewers = [0, 1, 2, 3]
            .map(Viewer::Seat)
            .into_iter()
            .chain([Viewer::Spectator]);
        let mut streams: Vec<ViewStream> = viewers.map(ViewStream::new).collect();
        let mut docs = first_snapshots(&mut streams, &game);
        let (mut replaced, mut unchanged) = (0, 0);
        for step in 0..400 {
            let Some(seat) = game.waiting_on().iter().next() else {
                break;
            };
            let action = bot.choose(&game, seat).unwrap();
            let events = game.apply(seat, action).unwrap();
            let mut frame = Frame::new(&game, &events);
            for (stream, doc) in streams.iter_mut().zip(docs.iter_mut()) {
                let text = stream.update(&mut frame).unwrap();
                let ServerMsg::Update { patch, .. } = serde_json::from_str(&text).unwrap() else {
                    panic!("not an update: {text}")
                };
                let patch: json_patch::Patch = serde_json::from_value(patch).unwrap();
                let before = doc["legal"].clone();
                json_patch::patch(doc, &patch).unwrap();
                let on_legal: Vec<_> = patch
                    .0
                    .iter()
                    .filter(|op| op.path().to_string().starts_with("/legal"))
                    .collect();
                if doc["legal"] == before {
                    assert!(on_legal.is_empty(), "step {step}: unchanged legal sent: {text}");
                    // The spectator's legal actions never change: count the seats'.
                    if stream.viewer != Viewer::Spectator {
                        unchanged += 1;
                    }
                } else {
                    assert!(
                        matches!(on_legal[..], [json_patch::PatchOperation::Replace(ref r)] if r.path == "/legal"),
                        "step {step}: legal not one whole replace: {text}"
                    );
                    replaced += 1;
                }
            }
            assert_fresh_snapshots(&streams, &docs, &mut Frame::new(&game, &[]), step);
        }
        assert!(
            replaced > 100 && unchanged > 100,
            "{replaced} replaced, {unchanged} unchanged"
        );
    }

    /// The server's `deadline_ms` rides in the public part of every view: it appears,
    /// changes and disappears through patches, and the patched view equals the snapshot.
    #[test]
    fn deadlines_travel_in_patches_and_snapshots() {
        let mut game = Game::new(GameConfig::default(), 11).unwrap();
        let mut bot = RandomBot::new(11);
        let mut streams = [
            ViewStream::new(Viewer::Seat(1)),
            ViewStream::new(Viewer::Spectator),
        ];
        let mut docs = first_snapshots(&mut streams, &game);
        assert!(docs[0].get(DEADLINE).is_none());
        for step in 0..12i64 {
            // On, changing, off again, on.
            let deadline = (step % 4 != 3).then_some(1_700_000_000_000 + step * 1000);
            let seat = game.waiting_on().iter().next().unwrap();
            let action = bot.choose(&game, seat).unwrap();
            let events = game.apply(seat, action).unwrap();
            let mut frame = Frame::with_deadline(&game, &events, deadline);
            for (stream, doc) in streams.iter_mut().zip(docs.iter_mut()) {
                let text = stream.update(&mut frame).unwrap();
                let ServerMsg::Update { patch, .. } = serde_json::from_str(&text).unwrap() else {
                    panic!("not an update: {text}")
                };
                json_patch::patch(doc, &serde_json::from_value::<json_patch::Patch>(patch).unwrap()).unwrap();
                assert_eq!(
                    doc.get(DEADLINE).and_then(|d| d.as_i64()),
                    deadline,
                    "step {step}"
                );
            }
            assert_fresh_snapshots(
                &streams,
                &docs,
                &mut Frame::with_deadline(&game, &[], deadline),
                step,
            );
        }
    }

    /// The seats' control state (`away`, `bot_controlled`) rides in the public part of
    /// every view like the deadline: it appears, changes and disappears through patches,
    /// also in updates with no events (a change without an action), and the patched view
    /// equals a fresh snapshot.
    #[test]
    fn seat_control_travels_in_patches_and_snapshots() {
        let mut game = Game::new(GameConfig::default(), 5).unwrap();
        let mut bot = RandomBot::new(5);
        let mut streams = [
            ViewStream::new(Viewer::Seat(0)),
            ViewStream::new(Viewer::Seat(2)),
            ViewStream::new(Viewer::Spectator),
        ];
        let mut docs = first_snapshots(&mut streams, &game);
        assert!(docs[0].get(AWAY).is_none() && docs[0].get(BOT_CONTROLLED).is_none());
        let states: [(&[Seat], &[Seat]); 5] = [
            (&[1], &[3]),
            (&[1], &[1, 3]),
            (&[0, 1], &[1, 3]),
            (&[], &[3]),
            (&[], &[]),
        ];
        for step in 0..15usize {
            let (away, bots) = states[step % states.len()];
            let server = ServerFields {
                deadline_ms: None,
                away: away.to_vec(),
                bot_controlled: bots.to_vec(),
            };
            // Every other step an action, else a change of the control state alone.
            let events = if step % 2 == 0 {
                let seat = game.waiting_on().iter().next().unwrap();
                let action = bot.choose(&game, seat).unwrap();
                game.apply(seat, action).unwrap()
            } else {
                Vec::new()
            };
            let mut frame = Frame::with_server(&game, &events, server.clone());
            for (stream, doc) in streams.iter_mut().zip(docs.iter_mut()) {
                let text = stream.update(&mut frame).unwrap();
                let ServerMsg::Update {
                    patch, events: got, ..
                } = serde_json::from_str(&text).unwrap()
                else {
                    panic!("not an update: {text}")
                };
                assert_eq!(got.is_empty(), events.is_empty(), "step {step}");
                json_patch::patch(doc, &serde_json::from_value::<json_patch::Patch>(patch).unwrap()).unwrap();
                let seats = |key: &str| -> Option<Vec<Seat>> {
                    doc.get(key).map(|v| serde_json::from_value(v.clone()).unwrap())
                };
                assert_eq!(
                    seats(AWAY),
                    (!away.is_empty()).then(|| away.to_vec()),
                    "step {step}"
                );
                assert_eq!(
                    seats(BOT_CONTROLLED),
                    (!bots.is_empty()).then(|| bots.to_vec()),
                    "step {step}"
                );
            }
            assert_fresh_snapshots(&streams, &docs, &mut Frame::with_server(&game, &[], server), step);
        }
    }

    #[test]
    fn update_text_is_the_update_message_serde_would_write() {
        let mut game = Game::new(GameConfig::default(), 7).unwrap();
        let mut bot = RandomBot::new(7);
        let mut stream = ViewStream::new(Viewer::Seat(0));
        assert!(
            stream.update(&mut Frame::new(&game, &[])).is_none(),
            "no update before a snapshot"
        );
        let _ = stream.snapshot(&mut Frame::new(&game, &[]));
        for _ in 0..30 {
            let seat = game.waiting_on().iter().next().unwrap();
            let action = bot.choose(&game, seat).unwrap();
            let before = serde_json::to_value(game.view_state(Viewer::Seat(0))).unwrap();
            let events = game.apply(seat, action).unwrap();
            let text = stream.update(&mut Frame::new(&game, &events)).unwrap();
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
