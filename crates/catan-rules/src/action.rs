//! What a seat can ask the game to do.

use crate::resources::{Resource, ResourceSet};
use serde::{Deserialize, Serialize};
use std::fmt;

pub type Seat = u8;

/// A set of seats, as a bitmask; on the wire a list of seat numbers.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);
    #[inline]
    pub fn contains(self, s: Seat) -> bool {
        s < 8 && self.0 & (1 << s) != 0
    }
    #[inline]
    pub fn insert(&mut self, s: Seat) {
        self.0 |= 1 << s;
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |&s| self.contains(s))
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// On the wire: a list of distinct seat numbers.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for SeatSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SeatSet".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 7},
            "uniqueItems": true
        })
    }
}

impl<'de> Deserialize<'de> for SeatSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        let mut set = SeatSet::EMPTY;
        for s in v {
            if s >= 8 {
                return Err(serde::de::Error::custom(format!("no seat {s}")));
            }
            set.insert(s);
        }
        Ok(set)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCard {
    Knight,
    VictoryPoint,
    RoadBuilding,
    YearOfPlenty,
    Monopoly,
}

impl DevCard {
    pub const ALL: [DevCard; 5] = [
        DevCard::Knight,
        DevCard::VictoryPoint,
        DevCard::RoadBuilding,
        DevCard::YearOfPlenty,
        DevCard::Monopoly,
    ];
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One request from a seat. Serialized as `{"type": "build_road", "edge": 12}` etc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Roll the two dice (current player, once per turn, before building or trading).
    RollDice,
    /// Place a road (paid; free during set-up and Road Building).
    BuildRoad {
        edge: u8,
    },
    /// Place a settlement (paid; free during set-up).
    BuildSettlement {
        corner: u8,
    },
    /// Replace one of your settlements by a city.
    BuildCity {
        corner: u8,
    },
    BuyDevelopmentCard,
    PlayKnight,
    PlayRoadBuilding,
    PlayYearOfPlenty {
        first: Resource,
        second: Resource,
    },
    PlayMonopoly {
        resource: Resource,
    },
    /// Move the robber (after a 7 or a Knight) and name the victim to steal from, if any.
    MoveRobber {
        hex: u8,
        victim: Option<Seat>,
    },
    /// Give up exactly the required number of cards after a 7.
    Discard {
        cards: ResourceSet,
    },
    /// Trade with the bank: `give` ×(4, 3 or 2 by your harbors) for one `get`.
    MaritimeTrade {
        give: Resource,
        get: Resource,
    },
    /// The current player offers `give` for `get`, to the listed seats (empty: everyone).
    /// In Barbarian Invasion either side may also hold gold: `give_gold` coins offered or
    /// `get_gold` asked (absent on the wire when 0, so offers without gold keep their form).
    OfferTrade {
        give: ResourceSet,
        get: ResourceSet,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        give_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        get_gold: u16,
        #[serde(default)]
        to: SeatSet,
    },
    /// Accept the open offer as it stands.
    AcceptTrade,
    DeclineTrade,
    /// Answer the open offer with other terms, stated from your own side: you would give
    /// `give` and receive `get` (and gold, as in [`Action::OfferTrade`]).
    CounterOffer {
        give: ResourceSet,
        get: ResourceSet,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        give_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        get_gold: u16,
    },
    /// The current player completes the trade with one seat that accepted or countered.
    ConfirmTrade {
        with: Seat,
    },
    /// The current player withdraws the open offer.
    CancelTrade,
    /// End your turn (or, in the Special Building Phase, your special build turn).
    EndTurn,

    /// An action of The Helpers (flat on the wire: `{"type": "use_asla", …}`).
    #[serde(untagged)]
    Helpers(crate::helpers::HelpersAction),
    /// An action of Frenemies (flat on the wire: `{"type": "offer_gift", …}`).
    #[serde(untagged)]
    Frenemies(crate::frenemies::FrenemiesAction),
    /// An action of Barbarian Invasion (flat on the wire: `{"type": "move_knight", …}`).
    #[serde(untagged)]
    Barbarians(crate::barbarians::BarbariansAction),
}

impl Action {
    /// A short name for error messages and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Action::RollDice => "roll_dice",
            Action::BuildRoad { .. } => "build_road",
            Action::BuildSettlement { .. } => "build_settlement",
            Action::BuildCity { .. } => "build_city",
            Action::BuyDevelopmentCard => "buy_development_card",
            Action::PlayKnight => "play_knight",
            Action::PlayRoadBuilding => "play_road_building",
            Action::PlayYearOfPlenty { .. } => "play_year_of_plenty",
            Action::PlayMonopoly { .. } => "play_monopoly",
            Action::MoveRobber { .. } => "move_robber",
            Action::Discard { .. } => "discard",
            Action::MaritimeTrade { .. } => "maritime_trade",
            Action::OfferTrade { .. } => "offer_trade",
            Action::AcceptTrade => "accept_trade",
            Action::DeclineTrade => "decline_trade",
            Action::CounterOffer { .. } => "counter_offer",
            Action::ConfirmTrade { .. } => "confirm_trade",
            Action::CancelTrade => "cancel_trade",
            Action::EndTurn => "end_turn",
            Action::Helpers(a) => a.name(),
            Action::Frenemies(a) => a.name(),
            Action::Barbarians(a) => a.name(),
        }
    }
}

/// Serde's test for gold fields left off the wire when 0.
pub(crate) fn is_zero(n: &u16) -> bool {
    *n == 0
}

/// A choice too combinatorial to enumerate, stated as what the seat must supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Requirement {
    /// Send `discard` with exactly `count` cards from your hand.
    Discard { count: u8 },
    /// You may send `offer_trade`: give at least one card you hold, ask for at least one,
    /// no resource on both sides, to any of the other seats (gold: see `TradeGold`).
    OfferTrade,
    /// You may send `counter_offer` to the open offer, with the same constraints.
    CounterOffer,
    /// You may send `use_stina` giving `resource`: 2 of it for each card asked, at most
    /// `max` cards, none of `resource` itself, only what the bank holds.
    UseStina { resource: Resource, max: u8 },
    /// Barbarian Invasion, listed beside `offer_trade` / `counter_offer`: those may also
    /// carry gold, `give_gold` up to `gold` (the coins you hold) or `get_gold`, not both;
    /// a side may then hold gold and no card.
    TradeGold { gold: u16 },
}

/// Everything a seat may do now: fully specified actions plus requirements.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LegalActions {
    pub actions: Vec<Action>,
    pub requirements: Vec<Requirement>,
}

impl LegalActions {
    pub fn clear(&mut self) {
        self.actions.clear();
        self.requirements.clear();
    }
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty() && self.requirements.is_empty()
    }
    pub fn len(&self) -> usize {
        self.actions.len() + self.requirements.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Event, Game, GameConfig, RuleError, View, Viewer};

    #[test]
    fn actions_have_a_stable_json_form() {
        let cases = [
            (Action::RollDice, r#"{"type":"roll_dice"}"#),
            (
                Action::BuildRoad { edge: 12 },
                r#"{"type":"build_road","edge":12}"#,
            ),
            (
                Action::MoveRobber {
                    hex: 4,
                    victim: Some(2),
                },
                r#"{"type":"move_robber","hex":4,"victim":2}"#,
            ),
            (
                Action::MaritimeTrade {
                    give: Resource::Ore,
                    get: Resource::Wool,
                },
                r#"{"type":"maritime_trade","give":"ore","get":"wool"}"#,
            ),
            (
                Action::OfferTrade {
                    give: ResourceSet::new(1, 0, 0, 0, 0),
                    get: ResourceSet::new(0, 0, 0, 0, 1),
                    to: SeatSet(0b110),
                    give_gold: 0,
                    get_gold: 0,
                },
                r#"{"type":"offer_trade","give":{"brick":1,"lumber":0,"wool":0,"grain":0,"ore":0},"get":{"brick":0,"lumber":0,"wool":0,"grain":0,"ore":1},"to":[1,2]}"#,
            ),
        ];
        for (a, json) in cases {
            assert_eq!(serde_json::to_string(&a).unwrap(), json);
            assert_eq!(serde_json::from_str::<Action>(json).unwrap(), a);
        }
        // Omitted optional parts take their defaults; unknown fields are refused.
        let a: Action =
            serde_json::from_str(r#"{"type":"offer_trade","give":{"brick":1},"get":{"ore":1}}"#).unwrap();
        assert!(matches!(a, Action::OfferTrade { to, .. } if to.is_empty()));
        assert!(serde_json::from_str::<Action>(r#"{"type":"build_road","edge":1,"x":1}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"type":"fly"}"#).is_err());
    }

    #[test]
    fn events_errors_views_round_trip() {
        let mut g = Game::new(GameConfig::default(), 3).unwrap();
        let s = g.next_actor().unwrap();
        let e = g.apply(s, Action::RollDice).unwrap_err();
        let j = serde_json::to_string(&e).unwrap();
        assert!(j.contains(r#""kind":"wrong_phase""#), "{j}");
        assert_eq!(serde_json::from_str::<RuleError>(&j).unwrap(), e);
        let a = g.legal_actions(s).actions[0];
        for ev in g.apply(s, a).unwrap() {
            let j = serde_json::to_string(&ev).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&j).unwrap(), ev);
        }
        for viewer in [Viewer::Seat(0), Viewer::Spectator] {
            let v = g.view(viewer);
            let j = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<View>(&j).unwrap(), v);
        }
        let c: GameConfig = serde_json::from_str(r#"{"players":5,"scenario":"helpers"}"#).unwrap();
        assert_eq!(c.players, 5);
        assert!(serde_json::from_str::<GameConfig>(r#"{"players":4,"colour":"red"}"#).is_err());
    }
}
