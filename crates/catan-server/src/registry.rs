//! The registry maps invite codes to live room handles.

use crate::room::RoomMsg;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

#[derive(Clone)]
pub struct RoomHandle {
    pub room_id: String,
    pub tx: mpsc::Sender<RoomMsg>,
    /// The client address that created the room (for the per-address room limit).
    pub owner: Option<IpAddr>,
}

/// Why a room could not be registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The server holds its maximum of live rooms.
    Rooms,
    /// This client address already has its maximum of live rooms.
    Address,
}

/// The bounds checked by [`Registry::insert_limited`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_rooms: usize,
    pub max_rooms_per_address: usize,
}

/// Codes → rooms. A plain mutex: every critical section is a map lookup or insert.
#[derive(Clone, Default)]
pub struct Registry {
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
}

impl Registry {
    pub fn get(&self, code: &str) -> Option<RoomHandle> {
        self.rooms.lock().unwrap().get(code).cloned()
    }

    /// Inserts under a fresh code unique among live rooms, if neither the server nor the
    /// room's owner address is at its limit (checked and inserted under one lock, so
    /// concurrent creations cannot overshoot); returns the code.
    pub fn insert_limited(
        &self,
        make_code: impl Fn() -> String,
        handle: RoomHandle,
        limits: Limits,
    ) -> Result<String, Full> {
        let mut rooms = self.rooms.lock().unwrap();
        if rooms.len() >= limits.max_rooms {
            return Err(Full::Rooms);
        }
        if let Some(ip) = handle.owner {
            let owned = rooms.values().filter(|r| r.owner == Some(ip)).count();
            if owned >= limits.max_rooms_per_address {
                return Err(Full::Address);
            }
        }
        loop {
            let code = make_code();
            if !rooms.contains_key(&code) {
                rooms.insert(code.clone(), handle);
                return Ok(code);
            }
        }
    }

    /// Inserts under a given code (a room resumed from the journal keeps its invite
    /// code); `false` if the code is taken.
    pub fn insert_code(&self, code: &str, handle: RoomHandle) -> bool {
        let mut rooms = self.rooms.lock().unwrap();
        if rooms.contains_key(code) {
            return false;
        }
        rooms.insert(code.to_string(), handle);
        true
    }

    pub fn remove(&self, code: &str) {
        self.rooms.lock().unwrap().remove(code);
    }

    pub fn len(&self) -> usize {
        self.rooms.lock().unwrap().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn all(&self) -> Vec<RoomHandle> {
        self.rooms.lock().unwrap().values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(owner: Option<IpAddr>) -> RoomHandle {
        RoomHandle {
            room_id: String::new(),
            tx: mpsc::channel(1).0,
            owner,
        }
    }

    #[test]
    fn rooms_are_bounded_in_total_and_per_address() {
        let r = Registry::default();
        let limits = Limits {
            max_rooms: 3,
            max_rooms_per_address: 2,
        };
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let code = crate::codes::invite_code;
        assert!(r.insert_limited(code, handle(Some(a)), limits).is_ok());
        let second = r.insert_limited(code, handle(Some(a)), limits).unwrap();
        assert_eq!(
            r.insert_limited(code, handle(Some(a)), limits),
            Err(Full::Address)
        );
        assert!(r.insert_limited(code, handle(Some(b)), limits).is_ok());
        assert_eq!(r.insert_limited(code, handle(None), limits), Err(Full::Rooms));
        r.remove(&second);
        assert!(r.insert_limited(code, handle(Some(a)), limits).is_ok());
    }
}
