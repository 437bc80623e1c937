//! One viewer's stream of views: the version it is at and the view it last received, and
//! the wire texts that move it on (a snapshot, or an update carrying a patch). IO-free, so
//! the per-action broadcast path can be benchmarked on its own (`benches/broadcast.rs`).
//!
//! Why a [`Frame`]: after one action the viewers' views are nearly the same. The public
//! view (what a spectator sees) is serialized and diffed against the previous public view
//! **once**, and every viewer's patch reuses those operations; only the parts
//! of a seat's view that differ from the public one (its own player entry with the hand,
//! its legal actions, `viewer`, a scenario's private part) are built, serialized and
//! diffed (the legal actions replaced whole) per seat. The rules say which parts those
//! are ([`Game::seat_parts`]; their property test checks that the public view overlaid
//! with them is the seat's view), and a part equal to its public counterpart (an idle
//! seat's empty legal actions) is still shared. Events are redacted and serialized once
//! unless a viewer's redaction differs.
//!
//! Most of a view does not change in an action, so a part equal (typed, `PartialEq`) to the
//! same part of the view last sent is not serialized again: its text is copied from that
//! view's (typed views are compared, not texts, so this costs no serialization).
//!
//! A view is cut into parts: each top-level field, except `players`, which is one part per
//! player. A part's diff is the text diff of [`crate::diff`] (unchanged subtrees cost one
//! `memcmp`), except the legal actions, which go out whole when they change
//! ([`Key::replaced_whole`]); paths are the same as over the whole view, so the wire stays
//! RFC 6902 JSON Patch against the view the client holds.

use crate::diff::{Doc, PatchWriter};
use catan_protocol::ServerMsg;
use catan_rules::{redact, Event, Game, Seat, SeatParts, View, Viewer};
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::Arc;
use tokio_tungstenite::tungstenite::Utf8Bytes;

/// A part of a view diffed on its own: a top-level field, or one entry of `players`.
#[derive(Clone, Copy, Debug, Eq)]
enum Key {
    Field(&'static str),
    Player(u8),
}

/// Keys are compared many times per viewer and action (each viewer's parts are matched
/// with the public ones): a field's name is nearly always the same literal on both sides,
/// so equal addresses answer without comparing bytes.
impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        match (self, other) {
            (Key::Field(a), Key::Field(b)) => std::ptr::eq(*a, *b) || a == b,
            (Key::Player(a), Key::Player(b)) => a == b,
            _ => false,
        }
    }
}

impl Key {
    /// Whether a changed part goes out as one `replace` of its whole value instead of a
    /// diff. A seat's legal actions are a list the rules build afresh after every action
    /// (the acting seat's changes with nearly every one, and its entries shift), so the
    /// diff walk seldom finds less to send than the whole: on 2,000 actions of recorded
    /// games (`examples/broadcast_replay`) walking it cost 12.6 k instructions per action,
    /// a ninth of the broadcast path, to save 0.9 % of the bytes of the updates.
    fn replaced_whole(self) -> bool {
        matches!(self, Key::Field("legal"))
    }

    /// The part's JSON Pointer (field names need no escaping).
    fn path(self, out: &mut String) {
        out.clear();
        match self {
            Key::Field(f) => {
                out.push('/');
                out.push_str(f);
            }
            Key::Player(i) => {
                let _ = write!(out, "/players/{i}");
            }
        }
    }
}

/// Serialized parts: their JSON texts one after another in one indexed text, and where
/// each is. A span of `None` is a field absent from the view (skipped by serde).
#[derive(Debug)]
struct Parts {
    doc: Doc,
    parts: Vec<(Key, Option<(u32, u32)>)>,
}

impl Parts {
    /// [`Parts::find`] looking at index `hint` first: views built one after another have
    /// their parts in the same order, so a part is nearly always where it was.
    fn find_near(&self, key: Key, hint: usize) -> Option<Option<(usize, usize)>> {
        let part = match self.parts.get(hint) {
            Some(p) if p.0 == key => Some(p),
            _ => self.parts.iter().find(|p| p.0 == key),
        };
        part.map(|p| p.1.map(|(s, e)| (s as usize, e as usize)))
    }

    /// The text of a present part.
    fn text(&self, (s, e): (usize, usize)) -> &str {
        &self.doc.text()[s..e]
    }
}

#[derive(Default)]
struct PartsBuilder {
    text: Vec<u8>,
    parts: Vec<(Key, Option<(u32, u32)>)>,
}

impl PartsBuilder {
    fn with_capacity(bytes: usize, parts: usize) -> Self {
        PartsBuilder {
            text: Vec::with_capacity(bytes),
            parts: Vec::with_capacity(parts),
        }
    }

    fn push<T: Serialize + ?Sized>(&mut self, key: Key, value: &T) {
        if !self.text.is_empty() {
            self.text.push(b',');
        }
        let start = self.text.len() as u32;
        serde_json::to_writer(&mut self.text, value).expect("views serialize");
        self.parts.push((key, Some((start, self.text.len() as u32))));
    }

    /// A part whose JSON text is already at hand (unchanged since the last view).
    fn push_text(&mut self, key: Key, text: &str) {
        if !self.text.is_empty() {
            self.text.push(b',');
        }
        let start = self.text.len() as u32;
        self.text.extend_from_slice(text.as_bytes());
        self.parts.push((key, Some((start, self.text.len() as u32))));
    }

    /// `value` as part `key`: copied from part `key` of `same` (parts known to hold an
    /// equal value there), else serialized.
    fn push_or_copy<T: Serialize + ?Sized>(&mut self, key: Key, value: &T, same: Option<&Parts>) {
        let copied = same.and_then(|p| Some(p.text(p.find_near(key, self.parts.len())??)));
        match copied {
            Some(text) => self.push_text(key, text),
            None => self.push(key, value),
        }
    }

    /// [`PartsBuilder::push_or_copy`] from the public view `base` when `same` says its
    /// typed view has an equal value there.
    fn push_or_reuse<T: Serialize + ?Sized>(
        &mut self,
        key: Key,
        value: &T,
        base: Option<&Public>,
        same: impl FnOnce(&View) -> bool,
    ) {
        self.push_or_copy(key, value, base.filter(|b| same(&b.view)).map(|b| &b.parts));
    }

    fn build(self) -> Parts {
        // serde_json writes UTF-8; checking it again is cheap next to serializing.
        let text = String::from_utf8(self.text).expect("serde_json writes UTF-8");
        Parts {
            doc: Doc::new(text),
            parts: self.parts,
        }
    }
}

/// Bytes to reserve for the parts of a view whose last version was `last`: its length and
/// a margin (a view changes little from one action to the next), so that serializing into
/// it seldom grows the buffer, which is kept while the view is the last one sent.
fn room_for(last: Option<&Parts>, default: usize) -> usize {
    last.map_or(default, |p| {
        let len = p.doc.text().len();
        len + len / 8 + 128
    })
}

/// The public (spectator's) view as sent: typed, to tell which parts the next one changes,
/// and serialized.
#[derive(Debug)]
struct Public {
    view: View,
    parts: Parts,
}

/// Writes every part of `v` (the public view): each field in serde's order, `players` one
/// entry per part, then the server's fields ([`ServerFields`]) that are present. A part equal (typed)
/// to the same part of `base`, the public view before, is copied from its text rather than
/// serialized again: most of the view does not change in an action. The exhaustive pattern
/// makes a new `View` field a compile error here.
fn public_parts(v: &View, base: Option<&Public>, server: &ServerFields) -> Parts {
    let View {
        viewer,
        config,
        board: _, // never in `view_state`: the fixed board travels in snapshots only
        robber,
        buildings,
        roads,
        players,
        bank,
        deck_size,
        phase,
        current,
        turn,
        dice,
        development_card_played,
        paired,
        offer,
        longest_road,
        largest_army,
        winner,
        waiting_on,
        legal,
        helpers,
        frenemies,
        barbarians,
    } = v;
    let mut b = PartsBuilder::with_capacity(room_for(base.map(|b| &b.parts), 4096), 32);
    macro_rules! field {
        ($($f:ident),*) => { $(
            b.push_or_reuse(Key::Field(stringify!($f)), $f, base, |p| p.$f == *$f);
        )* };
    }
    field!(viewer, config, robber, buildings, roads);
    for (i, pl) in players.iter().enumerate() {
        b.push_or_reuse(Key::Player(i as u8), pl, base, |p| p.players.get(i) == Some(pl));
    }
    field!(
        bank,
        deck_size,
        phase,
        current,
        turn,
        dice,
        development_card_played,
        paired,
        offer,
        longest_road,
        largest_army,
        winner,
        waiting_on,
        legal,
        helpers
    );
    if let Some(f) = frenemies {
        b.push_or_reuse(Key::Field("frenemies"), f, base, |p| {
            p.frenemies.as_ref() == Some(f)
        });
    }
    if let Some(f) = barbarians {
        b.push_or_reuse(Key::Field("barbarians"), f, base, |p| {
            p.barbarians.as_ref() == Some(f)
        });
    }
    server.each(|key, value| b.push(Key::Field(key), &value));
    b.build()
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
        if !self.away.is_empty() {
            f(AWAY, self.away.clone().into());
        }
        if !self.bot_controlled.is_empty() {
            f(BOT_CONTROLLED, self.bot_controlled.clone().into());
        }
    }
}

/// The parts of a seat's view that differ from the public view `p`, from the seat's own
/// parts ([`Game::seat_parts`]: the rules compute only what depends on the viewer).
/// A part equal (typed) to the one the seat last received is copied from that text.
fn private_parts(sp: &SeatParts, p: &View, last: Option<(&SeatParts, &Parts)>) -> Parts {
    let mut b = PartsBuilder::with_capacity(room_for(last.map(|l| l.1), 1024), 4);
    let same = |equal: fn(&SeatParts, &SeatParts) -> bool| {
        last.filter(|(l, _)| l.seat == sp.seat && equal(l, sp))
            .map(|(_, parts)| parts)
    };
    b.push_or_copy(Key::Field("viewer"), &Viewer::Seat(sp.seat), same(|_, _| true));
    if p.players.get(sp.seat as usize) != Some(&sp.player) {
        b.push_or_copy(
            Key::Player(sp.seat),
            &sp.player,
            same(|l, n| l.player == n.player),
        );
    }
    if sp.legal != p.legal {
        b.push_or_copy(Key::Field("legal"), &sp.legal, same(|l, n| l.legal == n.legal));
    }
    if let Some(h) = sp.helpers.as_ref().filter(|h| p.helpers.as_ref() != Some(*h)) {
        b.push_or_copy(Key::Field("helpers"), h, same(|l, n| l.helpers == n.helpers));
    }
    if let Some(f) = sp.frenemies.as_ref().filter(|f| p.frenemies.as_ref() != Some(*f)) {
        b.push_or_copy(
            Key::Field("frenemies"),
            f,
            same(|l, n| l.frenemies == n.frenemies),
        );
    }
    b.build()
}

/// Where a part of one viewer's view lies: in the shared public parts (by index) or in the
/// viewer's own parts (`None`: absent from the view).
#[derive(Clone, Copy)]
enum Src {
    Public(usize),
    Private(Option<(usize, usize)>),
}

/// A view as sent: the shared public parts with the viewer's own parts over them.
#[derive(Debug)]
struct Sent {
    public: Arc<Public>,
    private: Parts,
    /// A seat's own parts, typed, to tell which the next view changes.
    seat: Option<SeatParts>,
}

/// The parts of the view made of `public` overlaid by `private`, in order.
fn layout(public: &Parts, private: &Parts, out: &mut Vec<(Key, Src)>) {
    out.clear();
    let public_parts = public.parts.iter().enumerate();
    out.extend(public_parts.map(|(i, &(key, _))| (key, Src::Public(i))));
    // A viewer has a few own parts: each replaces its public counterpart, or follows.
    let shared = out.len();
    for &(key, span) in &private.parts {
        let src = Src::Private(span.map(|(s, e)| (s as usize, e as usize)));
        match out[..shared].iter_mut().find(|p| p.0 == key) {
            Some(slot) => slot.1 = src,
            None => out.push((key, src)),
        }
    }
}

/// The public diff from one base to the frame's public view: for each public part, the
/// operations (a range of `ops`) and their count.
struct SharedDiff {
    base: Arc<Public>,
    ops: String,
    per_part: Vec<(usize, usize, usize)>,
}

/// Everything the viewers' updates after one action (or a round of snapshots) share.
pub struct Frame<'g> {
    game: &'g Game,
    /// The public (spectator's) view, typed, until its parts are built ([`Frame::public`]).
    view: Option<View>,
    public: Option<Arc<Public>>,
    events: &'g [Event],
    server: ServerFields,
    public_events: Vec<Event>,
    public_events_text: String,
    diffs: Vec<SharedDiff>,
    /// Scratch: a viewer's old and new layouts, the current part's path, the patch
    /// writer's path.
    old_layout: Vec<(Key, Src)>,
    new_layout: Vec<(Key, Src)>,
    path: String,
    writer_path: String,
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
        let public_events: Vec<Event> = events.iter().map(|e| redact(e, Viewer::Spectator)).collect();
        let public_events_text = serde_json::to_string(&public_events).expect("events serialize");
        Frame {
            game,
            view: Some(view),
            public: None,
            events,
            server,
            public_events,
            public_events_text,
            diffs: Vec::new(),
            old_layout: Vec::new(),
            new_layout: Vec::new(),
            path: String::new(),
            writer_path: String::new(),
        }
    }

    /// The public view, serialized on first use: parts equal to those of `base` (the
    /// public view the first viewer asking last received) are copied from its text.
    fn public(&mut self, base: Option<&Arc<Public>>) -> Arc<Public> {
        if let Some(public) = &self.public {
            return public.clone();
        }
        let view = self
            .view
            .take()
            .expect("the view is kept until the parts are built");
        let parts = public_parts(&view, base.map(|b| &**b), &self.server);
        let public = Arc::new(Public { view, parts });
        self.public = Some(public.clone());
        public
    }

    /// The parts of `viewer`'s view that are not the public ones (after [`Frame::public`])
    /// and, for a seat, its own parts typed; `last` is the view it last received.
    fn private(&self, viewer: Viewer, last: Option<&Sent>) -> (Parts, Option<SeatParts>) {
        match viewer {
            // The public view is the spectator's view.
            Viewer::Spectator => (PartsBuilder::default().build(), None),
            Viewer::Seat(seat) => {
                let public = self.public.as_ref().expect("public parts built first");
                let sp = self.game.seat_parts(seat);
                let last = last.and_then(|l| Some((l.seat.as_ref()?, &l.private)));
                (private_parts(&sp, &public.view, last), Some(sp))
            }
        }
    }

    /// The public diff from `base` (computed once per distinct base).
    fn shared_diff(&mut self, base: &Arc<Public>) -> usize {
        if let Some(i) = self.diffs.iter().position(|d| Arc::ptr_eq(&d.base, base)) {
            return i;
        }
        let new = &self.public.as_ref().expect("public parts built first").parts;
        let base_parts = &base.parts;
        let mut ops = String::with_capacity(512);
        let mut per_part = Vec::with_capacity(new.parts.len());
        let mut w = PatchWriter::with_scratch(&mut ops, std::mem::take(&mut self.writer_path));
        for (i, &(key, span)) in new.parts.iter().enumerate() {
            let (ns, ne) = span.expect("public parts are present");
            let (ns, ne) = (ns as usize, ne as usize);
            let (len, before) = (w.len(), w.ops());
            let old = base_parts.find_near(key, i).flatten();
            // Most parts are unchanged (copied text): no path to write for them.
            if old.is_some_and(|o| base_parts.text(o) == new.text((ns, ne))) {
                per_part.push((len, len, 0));
                continue;
            }
            key.path(&mut self.path);
            match old {
                Some(old) => diff_part(
                    &mut w,
                    key,
                    &self.path,
                    (&base_parts.doc, old),
                    (&new.doc, (ns, ne)),
                ),
                None => w.set_at(&self.path, &new.doc.text()[ns..ne], false),
            }
            let count = w.ops() - before;
            // The operations start after the comma separating them from earlier ones.
            let start = if count > 0 && before > 0 { len + 1 } else { len };
            per_part.push((start, w.len(), count));
        }
        self.writer_path = w.into_scratch();
        self.diffs.push(SharedDiff {
            base: base.clone(),
            ops,
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
        let public = frame.public(self.last.as_ref().map(|l| &l.public));
        let (private, seat) = frame.private(self.viewer, self.last.as_ref());
        self.last = Some(Sent {
            public,
            private,
            seat,
        });
        let mut view = serde_json::to_value(view).expect("views serialize");
        if let Some(map) = view.as_object_mut() {
            frame.server.each(|key, value| {
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
        let public = frame.public(Some(&last.public));
        let (private, seat) = frame.private(self.viewer, Some(last));
        self.v += 1;
        // Room for the whole message, so that it is written without growing: the shared
        // operations, at most a replace of each own part, the events.
        let shared = frame.shared_diff(&last.public);
        let room = frame.diffs[shared].ops.len() + private.doc.text().len() + 256;
        let mut out = String::with_capacity(room + frame.public_events_text.len());
        out.push_str("{\"type\":\"update\",\"v\":");
        let _ = write!(out, "{}", self.v);
        out.push_str(",\"patch\":[");
        write_patch(frame, shared, last, &private, &mut out);
        out.push_str("],\"events\":");
        out.push_str(&frame.events_text(self.viewer));
        out.push('}');
        self.last = Some(Sent {
            public,
            private,
            seat,
        });
        Some(out.into())
    }
}

/// The operations turning a part's old text into its new one at `path`: their diff, or,
/// for a part [`Key::replaced_whole`], one `replace` when the text changed.
fn diff_part(
    w: &mut PatchWriter<'_>,
    key: Key,
    path: &str,
    (od, os): (&Doc, (usize, usize)),
    (nd, ns): (&Doc, (usize, usize)),
) {
    if !key.replaced_whole() {
        return w.diff_at(path, od, os, nd, ns);
    }
    let new_text = &nd.text()[ns.0..ns.1];
    if od.text()[os.0..os.1] != *new_text {
        w.set_at(path, new_text, true);
    }
}

/// The text of a part: its document and span, or `None` when absent from the view.
fn resolve<'a>(public: &'a Parts, private: &'a Parts, src: Src) -> Option<(&'a Doc, (usize, usize))> {
    match src {
        Src::Public(i) => public.parts[i]
            .1
            .map(|(s, e)| (&public.doc, (s as usize, e as usize))),
        Src::Private(span) => span.map(|span| (&private.doc, span)),
    }
}

/// The patch from the view `old` to the frame's public view overlaid by `private`;
/// `shared` is the frame's public diff from `old`'s public view ([`Frame::shared_diff`]).
fn write_patch(frame: &mut Frame<'_>, shared: usize, old: &Sent, private: &Parts, out: &mut String) {
    let new_public = frame.public.clone().expect("public parts built first");
    let (old_public, new_public) = (&old.public.parts, &new_public.parts);
    let mut old_layout = std::mem::take(&mut frame.old_layout);
    let mut new_layout = std::mem::take(&mut frame.new_layout);
    let mut path = std::mem::take(&mut frame.path);
    layout(old_public, &old.private, &mut old_layout);
    layout(new_public, private, &mut new_layout);
    let shared = &frame.diffs[shared];
    let mut w = PatchWriter::with_scratch(out, std::mem::take(&mut frame.writer_path));
    // Whether both layouts have the same parts in the same order (nearly always).
    let mut aligned = old_layout.len() == new_layout.len();
    for (n, &(key, nsrc)) in new_layout.iter().enumerate() {
        // Layouts are in the same order, so the old part is usually at the same index.
        let osrc = match old_layout.get(n) {
            Some(&(k, s)) if k == key => Some(s),
            _ => {
                aligned = false;
                old_layout.iter().find(|p| p.0 == key).map(|p| p.1)
            }
        };
        if let (Some(Src::Public(_)), Src::Public(i)) = (osrc, nsrc) {
            // Public in both: the operations every viewer shares.
            let (s, e, count) = shared.per_part[i];
            w.append(&shared.ops[s..e], count);
            continue;
        }
        key.path(&mut path);
        let old_text = osrc.and_then(|o| resolve(old_public, &old.private, o));
        match (old_text, resolve(new_public, private, nsrc)) {
            (Some(old), Some(new)) => diff_part(&mut w, key, &path, old, new),
            (None, Some((nd, (s, e)))) => w.set_at(&path, &nd.text()[s..e], false),
            (Some(_), None) => w.remove_at(&path),
            (None, None) => {}
        }
    }
    // Parts gone from the view, last first (so that player indices stay valid); none
    // when the layouts are aligned.
    for &(key, osrc) in old_layout.iter().rev().filter(|_| !aligned) {
        if resolve(old_public, &old.private, osrc).is_some() && !new_layout.iter().any(|p| p.0 == key) {
            key.path(&mut path);
            w.remove_at(&path);
        }
    }
    frame.writer_path = w.into_scratch();
    frame.old_layout = old_layout;
    frame.new_layout = new_layout;
    frame.path = path;
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

    /// A seat's legal actions go out whole ([`Key::replaced_whole`]): a patch touches
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
