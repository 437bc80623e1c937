//! The registry maps invite codes to live room handles.

use crate::room::RoomMsg;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

#[derive(Clone)]
pub struct RoomHandle {
    pub room_id: String,
    pub tx: mpsc::Sender<RoomMsg>,
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

    /// Inserts under a fresh code unique among live rooms; returns the code.
    pub fn insert_unique(&self, make_code: impl Fn() -> String, handle: RoomHandle) -> String {
        let mut rooms = self.rooms.lock().unwrap();
        loop {
            let code = make_code();
            if !rooms.contains_key(&code) {
                rooms.insert(code.clone(), handle);
                return code;
            }
        }
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
