//! A small Chrome DevTools Protocol client for the browser tests: it starts Debian's
//! headless `chromium`, talks CDP (JSON over one WebSocket, through tokio-tungstenite,
//! already in the tree) and gives tests pages to navigate, evaluate, click, type into and
//! screenshot. No browser is ever downloaded.
//!
//! Where Chromium is missing, [`Browser::launch`] returns `None` with a message (the
//! tests skip) unless `CATAN_REQUIRE_BROWSER` or `CI` is set: then it panics, so CI
//! cannot pass without running them. Every Chromium started is killed when its
//! [`Browser`] drops, also when a test panics.

use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Sink = SplitSink<WebSocketStream<MaybeTlsStream<TcpStream>>, Message>;

/// Where the browser is looked for (`CATAN_CHROMIUM` overrides).
fn chromium_path() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CATAN_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// CI must run the browser tests: a missing browser fails there instead of skipping.
fn browser_required() -> bool {
    std::env::var_os("CATAN_REQUIRE_BROWSER").is_some_and(|v| !v.is_empty() && v != "0")
        || std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

struct Shared {
    pending: Mutex<HashMap<u64, oneshot::Sender<Value>>>,
    /// JavaScript exceptions and console errors per CDP session.
    errors: Mutex<HashMap<String, Vec<String>>>,
}

/// One headless Chromium process and its CDP connection.
pub struct Browser {
    child: Child,
    _dir: tempfile::TempDir,
    sink: Arc<tokio::sync::Mutex<Sink>>,
    shared: Arc<Shared>,
    next_id: Arc<AtomicU64>,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.reader.abort();
        // Chromium's helpers (zygote, renderers, GPU) share its process group: end them all.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A page (a CDP target with its own session) in some browser context.
#[derive(Clone)]
pub struct Page {
    session: String,
    pub target: String,
    sink: Arc<tokio::sync::Mutex<Sink>>,
    shared: Arc<Shared>,
    next_id: Arc<AtomicU64>,
}

async fn send(
    sink: &tokio::sync::Mutex<Sink>,
    shared: &Shared,
    next_id: &AtomicU64,
    session: Option<&str>,
    method: &str,
    params: Value,
) -> anyhow::Result<Value> {
    let id = next_id.fetch_add(1, Ordering::Relaxed);
    let mut msg = json!({"id": id, "method": method, "params": params});
    if let Some(s) = session {
        msg["sessionId"] = json!(s);
    }
    let (tx, rx) = oneshot::channel();
    shared.pending.lock().unwrap().insert(id, tx);
    sink.lock()
        .await
        .send(Message::Text(msg.to_string().into()))
        .await?;
    let answer = tokio::time::timeout(Duration::from_secs(60), rx)
        .await
        .map_err(|_| anyhow::anyhow!("CDP {method}: no answer in 60 s"))??;
    if let Some(e) = answer.get("error") {
        anyhow::bail!("CDP {method}: {e}");
    }
    Ok(answer["result"].clone())
}

impl Browser {
    /// Starts headless Chromium, or `None` (after saying why) when it is not installed and
    /// the environment does not require it.
    pub async fn launch() -> Option<Browser> {
        let Some(exe) = chromium_path() else {
            if browser_required() {
                panic!(
                    "the browser tests must run here (CI or CATAN_REQUIRE_BROWSER is set) but \
                     Chromium is not installed: apt-get install -y chromium"
                );
            }
            eprintln!(
                "SKIPPED: browser test: Chromium not found (/usr/bin/chromium); install Debian's \
                 `chromium` package to run it (CI requires it)"
            );
            return None;
        };
        Some(Browser::start(&exe).await.expect("start headless Chromium"))
    }

    async fn start(exe: &Path) -> anyhow::Result<Browser> {
        let dir = tempfile::tempdir()?;
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-extensions",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--mute-audio",
                "--hide-scrollbars",
                "--window-size=1280,900",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", dir.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        let port_file = dir.path().join("DevToolsActivePort");
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let text = loop {
            if let Ok(t) = std::fs::read_to_string(&port_file) {
                if t.lines().count() >= 2 {
                    break t;
                }
            }
            if let Some(status) = child.try_wait()? {
                anyhow::bail!("chromium exited at start: {status}");
            }
            if std::time::Instant::now() > deadline {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                anyhow::bail!("chromium wrote no DevToolsActivePort within 60 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let mut lines = text.lines();
        let port = lines.next().unwrap_or_default().trim().to_string();
        let path = lines.next().unwrap_or_default().trim().to_string();
        let url = format!("ws://127.0.0.1:{port}{path}");
        let (ws, _) = match tokio_tungstenite::connect_async(&url).await {
            Ok(ws) => ws,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                anyhow::bail!("connect to {url}: {e}");
            }
        };
        let (sink, mut stream) = ws.split();
        let shared = Arc::new(Shared {
            pending: Mutex::new(HashMap::new()),
            errors: Mutex::new(HashMap::new()),
        });
        let reader_shared = shared.clone();
        let reader = tokio::spawn(async move {
            while let Some(Ok(msg)) = stream.next().await {
                let Message::Text(text) = msg else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                if let Some(id) = v.get("id").and_then(Value::as_u64) {
                    if let Some(tx) = reader_shared.pending.lock().unwrap().remove(&id) {
                        let _ = tx.send(v);
                    }
                    continue;
                }
                let session = v["sessionId"].as_str().unwrap_or_default().to_string();
                let error = match v["method"].as_str() {
                    Some("Runtime.exceptionThrown") => {
                        let d = &v["params"]["exceptionDetails"];
                        Some(format!(
                            "exception: {} {}",
                            d["text"].as_str().unwrap_or_default(),
                            d["exception"]["description"].as_str().unwrap_or_default()
                        ))
                    }
                    Some("Runtime.consoleAPICalled") if v["params"]["type"] == "error" => {
                        Some(format!("console.error: {}", v["params"]["args"]))
                    }
                    _ => None,
                };
                if let Some(e) = error {
                    reader_shared
                        .errors
                        .lock()
                        .unwrap()
                        .entry(session)
                        .or_default()
                        .push(e);
                }
            }
        });
        Ok(Browser {
            child,
            _dir: dir,
            sink: Arc::new(tokio::sync::Mutex::new(sink)),
            shared,
            next_id: Arc::new(AtomicU64::new(1)),
            reader,
        })
    }

    async fn call(&self, method: &str, params: Value) -> anyhow::Result<Value> {
        send(&self.sink, &self.shared, &self.next_id, None, method, params).await
    }

    /// A fresh browser context: its own cookies and storage, like another person's browser.
    pub async fn new_context(&self) -> anyhow::Result<String> {
        let r = self.call("Target.createBrowserContext", json!({})).await?;
        Ok(r["browserContextId"].as_str().unwrap_or_default().to_string())
    }

    /// A new page (tab) in `context` (`None`: the default context), `width`×`height` CSS px.
    pub async fn new_page(&self, context: Option<&str>, width: u32, height: u32) -> anyhow::Result<Page> {
        let mut params = json!({"url": "about:blank"});
        if let Some(c) = context {
            params["browserContextId"] = json!(c);
        }
        let r = self.call("Target.createTarget", params).await?;
        let target = r["targetId"].as_str().unwrap_or_default().to_string();
        let r = self
            .call(
                "Target.attachToTarget",
                json!({"targetId": target, "flatten": true}),
            )
            .await?;
        let session = r["sessionId"].as_str().unwrap_or_default().to_string();
        let page = Page {
            session,
            target,
            sink: self.sink.clone(),
            shared: self.shared.clone(),
            next_id: self.next_id.clone(),
        };
        page.call("Page.enable", json!({})).await?;
        page.call("Runtime.enable", json!({})).await?;
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        )
        .await?;
        Ok(page)
    }
}

/// What a test waits for at most before failing.
pub const PAGE_WAIT: Duration = Duration::from_secs(60);

impl Page {
    pub async fn call(&self, method: &str, params: Value) -> anyhow::Result<Value> {
        send(
            &self.sink,
            &self.shared,
            &self.next_id,
            Some(&self.session),
            method,
            params,
        )
        .await
    }

    /// JavaScript errors (uncaught exceptions, `console.error`) seen on this page so far.
    pub fn errors(&self) -> Vec<String> {
        self.shared
            .errors
            .lock()
            .unwrap()
            .get(&self.session)
            .cloned()
            .unwrap_or_default()
    }

    /// Navigates and waits until the document has loaded.
    pub async fn goto(&self, url: &str) -> anyhow::Result<()> {
        let r = self.call("Page.navigate", json!({"url": url})).await?;
        if let Some(e) = r.get("errorText") {
            anyhow::bail!("navigate to {url}: {e}");
        }
        self.wait_for("document.readyState === 'complete'", "the page loads")
            .await?;
        Ok(())
    }

    /// Reloads and waits until the document has loaded.
    pub async fn reload(&self) -> anyhow::Result<()> {
        self.eval("window.__reloading = 1").await?;
        self.call("Page.reload", json!({})).await?;
        self.wait_for(
            "window.__reloading === undefined && document.readyState === 'complete'",
            "the page reloads",
        )
        .await?;
        Ok(())
    }

    /// Evaluates `expr` (awaiting a promise) and returns its JSON value.
    pub async fn eval(&self, expr: &str) -> anyhow::Result<Value> {
        let r = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(e) = r.get("exceptionDetails") {
            anyhow::bail!(
                "evaluate {expr}: {}",
                e["exception"]["description"].as_str().unwrap_or(&e.to_string())
            );
        }
        Ok(r["result"]["value"].clone())
    }

    /// Polls `expr` until it is truthy (or [`PAGE_WAIT`] passes: an error naming `what`).
    pub async fn wait_for(&self, expr: &str, what: &str) -> anyhow::Result<Value> {
        let deadline = tokio::time::Instant::now() + PAGE_WAIT;
        loop {
            // Navigation may tear the context down mid-evaluation: retry until the deadline.
            if let Ok(v) = self.eval(expr).await {
                let truthy =
                    !matches!(&v, Value::Null | Value::Bool(false)) && v != json!(0) && v != json!("");
                if truthy {
                    return Ok(v);
                }
            }
            if tokio::time::Instant::now() > deadline {
                anyhow::bail!("waited {PAGE_WAIT:?} for {what} ({expr})");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the centre of the first element matching `selector` with real mouse events
    /// (scrolled into view first); fails when there is none.
    pub async fn click(&self, selector: &str) -> anyhow::Result<()> {
        if !self.try_click(selector).await? {
            anyhow::bail!("nothing to click at {selector}");
        }
        Ok(())
    }

    /// [`Page::click`], or `false` when nothing matches `selector` (a page that changes on
    /// its own, as other seats' moves arrive, may have dropped what was there a moment ago).
    pub async fn try_click(&self, selector: &str) -> anyhow::Result<bool> {
        let sel = serde_json::to_string(selector)?;
        let at = self
            .eval(&format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return null; \
                 e.scrollIntoView({{block: 'center', inline: 'center'}}); \
                 const r = e.getBoundingClientRect(); \
                 return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
            ))
            .await?;
        let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
            return Ok(false);
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await?;
        }
        Ok(true)
    }

    /// Focuses `selector`, clears it and types `text` as keyboard input.
    pub async fn type_into(&self, selector: &str, text: &str) -> anyhow::Result<()> {
        let sel = serde_json::to_string(selector)?;
        let found = self
            .eval(&format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return false; \
                 e.focus(); e.select && e.select(); return true; }})()"
            ))
            .await?;
        if found != json!(true) {
            anyhow::bail!("no input {selector}");
        }
        self.call("Input.insertText", json!({"text": text})).await?;
        Ok(())
    }

    /// Presses one key (e.g. `"Enter"`, `"Tab"`) on the focused element.
    pub async fn press(&self, key: &str) -> anyhow::Result<()> {
        let code = if key.len() == 1 {
            format!("Key{}", key.to_uppercase())
        } else {
            key.to_string()
        };
        let vk = match key {
            "Enter" => 13,
            "Tab" => 9,
            "Escape" => 27,
            "End" => 35,
            "Home" => 36,
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            " " => 32,
            _ => key
                .chars()
                .next()
                .map(|c| c.to_ascii_uppercase() as u32)
                .unwrap_or(0),
        };
        for kind in ["keyDown", "keyUp"] {
            let mut p = json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk});
            if kind == "keyDown" && key == "Enter" {
                p["text"] = json!("\r");
            }
            self.call("Input.dispatchKeyEvent", p).await?;
        }
        Ok(())
    }

    /// Writes a PNG screenshot of the viewport to `path`.
    pub async fn screenshot(&self, path: &Path) -> anyhow::Result<()> {
        let r = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await?;
        let data = base64_decode(r["data"].as_str().unwrap_or_default())?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, data)?;
        Ok(())
    }

    /// Closes the page.
    pub async fn close(&self) -> anyhow::Result<()> {
        send(
            &self.sink,
            &self.shared,
            &self.next_id,
            None,
            "Target.closeTarget",
            json!({"targetId": self.target}),
        )
        .await?;
        Ok(())
    }
}

/// Standard base64 (CDP's screenshots); no crate for twenty lines.
fn base64_decode(s: &str) -> anyhow::Result<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c).ok_or_else(|| anyhow::anyhow!("bad base64 byte {c}"))? << (18 - 6 * i);
        }
        let take = chunk.len().saturating_sub(1);
        out.extend_from_slice(&n.to_be_bytes()[1..1 + take]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes_padded_and_unpadded() {
        assert_eq!(super::base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(super::base64_decode("aGk=").unwrap(), b"hi");
        assert_eq!(super::base64_decode("YWJj").unwrap(), b"abc");
        assert!(super::base64_decode("a$==").is_err());
    }
}
