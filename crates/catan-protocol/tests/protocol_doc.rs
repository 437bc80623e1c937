//! protocol.md stays in step with the wire types: every message type (both directions)
//! and every close code the server uses is documented.

use catan_protocol::{close, ClientMsg, ServerMsg};

const DOC: &str = include_str!("../../../protocol.md");

fn type_of<T: serde::Serialize>(m: &T) -> String {
    serde_json::to_value(m).unwrap()["type"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_message_type_is_documented() {
    let client = [
        ClientMsg::Join {
            code: "X".into(),
            name: None,
            token: None,
            spectate: false,
        },
        ClientMsg::Action {
            action: catan_rules::Action::RollDice,
        },
        ClientMsg::Chat { text: "x".into() },
        ClientMsg::Resync,
        ClientMsg::AddBots,
        ClientMsg::Start,
        ClientMsg::Ping,
    ];
    for m in &client {
        let t = type_of(m);
        assert!(
            DOC.contains(&format!("{{\"type\":\"{t}\"")),
            "client message {t} missing from protocol.md"
        );
    }
    let server = [
        ServerMsg::Snapshot {
            v: 0,
            view: serde_json::Value::Null,
        },
        ServerMsg::Update {
            v: 0,
            patch: serde_json::Value::Null,
            events: vec![],
        },
        ServerMsg::Error {
            request: String::new(),
            message: String::new(),
            rule: None,
        },
        ServerMsg::Chat {
            from: String::new(),
            seat: None,
            text: String::new(),
        },
        ServerMsg::Pong,
    ];
    for m in &server {
        let t = type_of(m);
        assert!(
            DOC.contains(&format!("{{\"type\":\"{t}\"")),
            "server message {t} missing from protocol.md"
        );
    }
    for t in ["welcome", "room"] {
        assert!(
            DOC.contains(&format!("{{\"type\":\"{t}\"")),
            "server message {t} missing"
        );
    }
}

#[test]
fn every_close_code_is_documented() {
    for code in [
        close::NORMAL,
        close::GOING_AWAY,
        close::POLICY,
        close::TOO_BIG,
        close::REPLACED,
        close::JOIN_REFUSED,
        close::ROOM_CLOSED,
        close::TOO_SLOW,
    ] {
        assert!(
            DOC.contains(&format!("| {code} |")),
            "close code {code} missing from protocol.md"
        );
    }
}

/// Every kind of requirement in `legal` has a row in protocol.md that shows it and the
/// exact action to send for it, and that action is a valid `Action` of the same type.
#[test]
fn every_requirement_says_what_to_send() {
    use catan_rules::{Requirement, Resource};
    let kinds = [
        Requirement::Discard { count: 4 },
        Requirement::OfferTrade,
        Requirement::CounterOffer,
        Requirement::UseStina {
            resource: Resource::Wool,
            max: 2,
        },
        Requirement::TradeGold { gold: 5 },
    ];
    for r in kinds {
        // A new kind of requirement fails to compile here until it has a row.
        match r {
            Requirement::Discard { .. }
            | Requirement::OfferTrade
            | Requirement::CounterOffer
            | Requirement::UseStina { .. }
            | Requirement::TradeGold { .. } => {}
        }
        let json = serde_json::to_string(&r).unwrap();
        let t = type_of(&r);
        let row = DOC
            .lines()
            .find(|l| l.starts_with(&format!("| `{json}` |")))
            .unwrap_or_else(|| panic!("no requirements row for {json} in protocol.md"));
        let action_json = row
            .split('`')
            .nth(3)
            .unwrap_or_else(|| panic!("no action example in {row}"));
        let action: catan_rules::Action = serde_json::from_str(action_json)
            .unwrap_or_else(|e| panic!("{action_json} is not an action: {e}"));
        // `trade_gold` only says that an offer or a counter may carry gold.
        let t = if t == "trade_gold" {
            "offer_trade".to_string()
        } else {
            t
        };
        assert_eq!(type_of(&action), t, "{row}");
    }
}
