//! The Helpers' own actions and events, joined to the core ones by one variant each
//! (`Action::Helpers`, `Event::Helpers`); on the wire they stay flat, tagged by `"type"`.

use super::Helper;
use crate::action::{DevCard, Seat};
use crate::resources::{Resource, ResourceSet};
use crate::view::Viewer;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum HelpersAction {
    /// Asla: ask `first` (then `second`) for 1 `resource` each.
    UseAsla {
        resource: Resource,
        first: Seat,
        second: Option<Seat>,
    },
    /// Asla follow-up: give the next player who gave you a card 1 `resource` back.
    AslaReturn {
        resource: Resource,
    },
    /// Yngvi: build a road paying `with` instead of `replace` (brick or lumber).
    BuildRoadWithYngvi {
        edge: u8,
        replace: Resource,
        with: Resource,
    },
    /// Hilda: after a non-7 roll that gave you nothing, take 1 `resource` from the bank.
    UseHilda {
        resource: Resource,
    },
    DeclineHilda,
    /// Högni: move one of your end roads from `from` to `to`.
    UseHogni {
        from: u8,
        to: u8,
    },
    /// Thorolf follow-up (7 or fewer cards on a rolled 7): take 1 `resource`.
    ThorolfTake {
        resource: Resource,
    },
    /// Diara: buy a development card, optionally paying `with` instead of `replace`, then
    /// look at the top 3 cards.
    BuyDevelopmentCardWithDiara {
        replace: Option<Resource>,
        with: Option<Resource>,
    },
    /// Diara follow-up: keep the looked-at card number `index`.
    DiaraKeep {
        index: u8,
    },
    /// Ryan: look at `target`'s hand (someone with more visible points).
    UseRyan {
        target: Seat,
    },
    /// Ryan follow-up: take 1 `resource` from the revealed hand.
    RyanTake {
        resource: Resource,
    },
    /// Gregor: remove one played knight and build a settlement (1 brick + 1 lumber) or a
    /// city (2 ore + 1 grain) at `corner`.
    UseGregor {
        corner: u8,
        city: bool,
    },
    /// Stina: give 2 `give` for each card of `get`, all at once.
    UseStina {
        give: Resource,
        get: ResourceSet,
    },
    /// Digur: chase the robber to `desert` and take 1 of what the hex it left produces.
    UseDigur {
        desert: u8,
    },
    /// Kaja: take 1 `resource`: what the robber's hex produces, or any on a desert.
    UseKaja {
        resource: Resource,
    },
    /// Carla: put one unplayed `card` under the deck and draw the top card.
    UseCarla {
        card: DevCard,
    },
    /// After using a sun-side helper: keep it, moon side up.
    HelperFlip,
    /// After using a helper: return it to the display and take `helper` from there.
    HelperExchange {
        helper: Helper,
    },
}

impl HelpersAction {
    /// A short name for error messages and logs.
    pub fn name(&self) -> &'static str {
        match self {
            HelpersAction::UseAsla { .. } => "use_asla",
            HelpersAction::AslaReturn { .. } => "asla_return",
            HelpersAction::BuildRoadWithYngvi { .. } => "build_road_with_yngvi",
            HelpersAction::UseHilda { .. } => "use_hilda",
            HelpersAction::DeclineHilda => "decline_hilda",
            HelpersAction::UseHogni { .. } => "use_hogni",
            HelpersAction::ThorolfTake { .. } => "thorolf_take",
            HelpersAction::BuyDevelopmentCardWithDiara { .. } => "buy_development_card_with_diara",
            HelpersAction::DiaraKeep { .. } => "diara_keep",
            HelpersAction::UseRyan { .. } => "use_ryan",
            HelpersAction::RyanTake { .. } => "ryan_take",
            HelpersAction::UseGregor { .. } => "use_gregor",
            HelpersAction::UseStina { .. } => "use_stina",
            HelpersAction::UseDigur { .. } => "use_digur",
            HelpersAction::UseKaja { .. } => "use_kaja",
            HelpersAction::UseCarla { .. } => "use_carla",
            HelpersAction::HelperFlip => "helper_flip",
            HelpersAction::HelperExchange { .. } => "helper_exchange",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HelpersEvent {
    HelperTaken {
        seat: Seat,
        helper: Helper,
    },
    HelperUsed {
        seat: Seat,
        helper: Helper,
    },
    HelperFlipped {
        seat: Seat,
        helper: Helper,
    },
    HelperExchanged {
        seat: Seat,
        returned: Helper,
        took: Helper,
    },
    /// What a helper's user paid (Yngvi, Diara, Gregor substitute payments).
    HelperPaid {
        seat: Seat,
        cards: ResourceSet,
    },
    /// Cards a helper took from the bank (Hilda, Thorolf, Digur, Kaja).
    HelperGained {
        seat: Seat,
        helper: Helper,
        cards: ResourceSet,
    },
    /// Thorolf spared his holder the discard.
    DiscardPrevented {
        seat: Seat,
    },
    AslaGave {
        from: Seat,
        to: Seat,
        resource: Resource,
    },
    AslaReturned {
        seat: Seat,
        to: Seat,
        resource: Resource,
    },
    RoadMoved {
        seat: Seat,
        from: u8,
        to: u8,
    },
    KnightRemoved {
        seat: Seat,
    },
    /// Diara looked at `count` cards (which ones only the user sees, in its view).
    DiaraLooked {
        seat: Seat,
        count: u8,
    },
    /// Ryan looked at `target`'s hand and took a card; its type only for both players.
    RyanTook {
        seat: Seat,
        target: Seat,
        resource: Option<Resource>,
    },
    /// Carla put a card under the deck and drew one; types only for the user.
    CarlaSwapped {
        seat: Seat,
        put: Option<DevCard>,
        drew: Option<DevCard>,
    },
}

impl HelpersEvent {
    /// The event as `viewer` may see it: what Ryan took only for both players, Carla's
    /// cards only for the user.
    pub fn redact(&self, viewer: Viewer) -> HelpersEvent {
        match *self {
            HelpersEvent::RyanTook {
                seat,
                target,
                resource,
            } => HelpersEvent::RyanTook {
                seat,
                target,
                resource: if viewer.is(seat) || viewer.is(target) {
                    resource
                } else {
                    None
                },
            },
            HelpersEvent::CarlaSwapped { seat, put, drew } => {
                let own = viewer.is(seat);
                HelpersEvent::CarlaSwapped {
                    seat,
                    put: if own { put } else { None },
                    drew: if own { drew } else { None },
                }
            }
            ref e => e.clone(),
        }
    }
}
