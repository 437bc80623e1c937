//! The reference web client, embedded in the binary so that `cargo run` serves a playable
//! game with nothing else installed (no CDN, no build step: plain ES modules and SVG).
//!
//! Pages (`/`, `/r/{code}`, `/games/{id}`) all get the same small HTML shell, which routes
//! on `location.pathname`. Assets live under `/assets/{hash}/…`, where the hash covers
//! every embedded file: they are cached for a year (`immutable`) and a new build changes
//! the path, while the shell itself is always revalidated (`no-cache`).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::OnceLock;

/// Every embedded file: name under `/assets/{hash}/`, content type, bytes.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../web/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/app.js"),
    ),
    (
        "net.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/net.js"),
    ),
    (
        "ui.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/ui.js"),
    ),
    (
        "start.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/start.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/lobby.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/board.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/game.js"),
    ),
    (
        "actions.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/actions.js"),
    ),
    (
        "words.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/words.js"),
    ),
    (
        "stats.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/stats.js"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/replay.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../web/favicon.svg"),
    ),
];

const SHELL: &str = include_str!("../web/index.html");

/// A short content hash of every asset (FNV-1a, 64 bits): the cache-busting path segment.
pub fn asset_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (name, _, bytes) in ASSETS {
            for b in name.bytes().chain(bytes.iter().copied()) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{:012x}", h >> 16)
    })
}

/// The HTML shell with the asset path filled in.
fn shell() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| SHELL.replace("{{ASSETS}}", &format!("/assets/{}", asset_hash())))
}

/// `/`, `/r/{code}`, `/games/{id}` and the assets.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(page))
        .route("/r/{code}", get(page))
        .route("/games/{id}", get(page))
        .route("/assets/{hash}/{file}", get(asset))
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        shell(),
    )
        .into_response()
}

async fn asset(Path((hash, file)): Path<(String, String)>) -> Response {
    let Some((_, kind, bytes)) = ASSETS.iter().find(|(name, _, _)| *name == file) else {
        return crate::json_error(StatusCode::NOT_FOUND, format!("no asset {file}"));
    };
    // An old hash (a page loaded before an upgrade) still gets the file, but not for a year.
    let cache = if hash == asset_hash() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    (
        [(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, cache)],
        *bytes,
    )
        .into_response()
}

/// Bytes a browser downloads for a game page: the shell and every asset.
pub fn page_weight() -> usize {
    shell().len() + ASSETS.iter().map(|(_, _, b)| b.len()).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_points_at_the_hashed_assets_and_every_asset_is_named_once() {
        let s = shell();
        assert!(s.contains(&format!("/assets/{}/app.js", asset_hash())), "{s}");
        assert!(!s.contains("{{"), "{s}");
        let mut names: Vec<_> = ASSETS.iter().map(|a| a.0).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ASSETS.len());
    }

    #[test]
    fn the_game_page_weighs_at_most_300_kb() {
        let w = page_weight();
        assert!(w <= 300 * 1024, "the game page weighs {w} bytes");
    }

    #[test]
    fn no_asset_loads_anything_from_another_host() {
        for (name, _, bytes) in ASSETS {
            let text = String::from_utf8_lossy(bytes);
            // The SVG namespace URI is an identifier, not a download.
            let text = text.replace("http://www.w3.org/2000/svg", "");
            for bad in ["http://", "https://", "//cdn", "@import"] {
                assert!(!text.contains(bad), "{name} mentions {bad}");
            }
        }
    }
}
