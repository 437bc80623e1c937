//! HTTP history of finished games, served from the store: list, inspect, replay, and the
//! view after action k (computed by replaying through the rules crate).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use catan_rules::Viewer;
use catan_store::{ReplayError, Store, StoreError};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    pub limit: Option<u32>,
    pub before: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct ReplayQuery {
    pub at: Option<usize>,
}

/// `GET /api/games`, `GET /api/games/{id}`, `GET /api/games/{id}/replay[?at=k]`,
/// `GET /api/games/{id}/stats`.
pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/api/games", get(list))
        .route("/api/games/{id}", get(detail))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/stats", get(stats))
        .with_state(store)
}

use crate::json_error as error;

fn store_error(e: StoreError) -> Response {
    match e {
        StoreError::Replay(ReplayError::OutOfRange { .. }) => error(StatusCode::BAD_REQUEST, e.to_string()),
        StoreError::Replay(_) | StoreError::Corrupt(_) => {
            tracing::error!(error = %e, "stored game cannot be served");
            error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
        e => {
            tracing::warn!(error = %e, "history query failed");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the game store is unavailable; try again",
            )
        }
    }
}

/// A query string that does not parse is a 400 with a JSON body like every other error
/// (axum's own rejection is plain text).
fn bad_query(e: QueryRejection) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        format!("invalid query string: {}", e.body_text()),
    )
}

async fn list(State(store): State<Store>, q: Result<Query<ListQuery>, QueryRejection>) -> Response {
    let q = match q {
        Ok(Query(q)) => q,
        Err(e) => return bad_query(e),
    };
    match store.list(q.limit.unwrap_or(20), q.before.as_deref()).await {
        Ok(page) => Json(page).into_response(),
        Err(e) => store_error(e),
    }
}

async fn detail(State(store): State<Store>, Path(id): Path<String>) -> Response {
    match store.get(&id).await {
        Ok(Some(game)) => Json(game).into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no finished game {id}")),
        Err(e) => store_error(e),
    }
}

async fn replay(
    State(store): State<Store>,
    Path(id): Path<String>,
    q: Result<Query<ReplayQuery>, QueryRejection>,
) -> Response {
    let q = match q {
        Ok(Query(q)) => q,
        Err(e) => return bad_query(e),
    };
    match q.at {
        Some(at) => match store.view_at(&id, Some(at), Viewer::Spectator).await {
            Ok(Some(view)) => Json(json!({ "id": id, "at": at, "view": view })).into_response(),
            Ok(None) => error(StatusCode::NOT_FOUND, format!("no finished game {id}")),
            Err(e) => store_error(e),
        },
        None => match store.replay(&id).await {
            Ok(Some(r)) => Json(r).into_response(),
            Ok(None) => error(StatusCode::NOT_FOUND, format!("no finished game {id}")),
            Err(e) => store_error(e),
        },
    }
}

/// `GET /api/games/{id}/stats`: dice and resource-card statistics, by replaying the log.
async fn stats(State(store): State<Store>, Path(id): Path<String>) -> Response {
    match store.replay(&id).await {
        Ok(Some(r)) => match crate::stats::compute(&r) {
            Ok(s) => Json(s).into_response(),
            Err(e) => store_error(StoreError::Replay(e)),
        },
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no finished game {id}")),
        Err(e) => store_error(e),
    }
}
