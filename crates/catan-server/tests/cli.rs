//! The `catan-server` binary as an operator starts it: `--version`, where its output goes,
//! the log formats, and the errors it exits with.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_catan-server");

fn server(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("LISTEN")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts")
}

/// Waits for the process to exit (bounded); returns (status code, stdout, stderr).
fn finish(mut child: Child) -> (Option<i32>, String, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    if let Some(mut s) = child.stdout.take() {
        s.read_to_string(&mut out).unwrap();
    }
    if let Some(mut s) = child.stderr.take() {
        s.read_to_string(&mut err).unwrap();
    }
    (status.code(), out, err)
}

fn sqlite_arg(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}/games.db", dir.path().display())
}

#[test]
fn version_names_the_package_version() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim(), format!("catan-server {}", env!("CARGO_PKG_VERSION")));
}

/// stdout has exactly the "connect to" line; logs go to stderr, without ANSI colours when
/// stderr is not a terminal; `--log-format json` makes every log line a JSON object.
#[test]
fn connect_line_on_stdout_plain_logs_on_stderr() {
    for format in ["text", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite_arg(&dir);
        let mut child = server(&[
            "--listen",
            "127.0.0.1:0",
            "--database-url",
            &db,
            "--log-format",
            format,
        ]);
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert!(
            line.starts_with("catan-server: connect to ws://127.0.0.1:"),
            "{line}"
        );
        // The store was opened before the line: its file exists.
        assert!(dir.path().join("games.db").exists());
        child.kill().unwrap();
        let (_, _, err) = finish(child);
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "", "only the connect line on stdout");
        assert!(
            !err.contains('\u{1b}'),
            "ANSI escapes in redirected logs: {err:?}"
        );
        assert!(err.contains("games store configured"), "{err}");
        if format == "json" {
            for l in err.lines().filter(|l| !l.is_empty()) {
                let v: serde_json::Value =
                    serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON log line ({e}): {l}"));
                assert!(v["level"].is_string() && v["fields"].is_object(), "{l}");
            }
        }
    }
}

#[test]
fn a_taken_address_is_named_in_the_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = finish(server(&["--listen", &addr, "--database-url", &sqlite_arg(&dir)]));
    assert_ne!(code, Some(0));
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert!(
        !out.contains("connect to"),
        "no connect line for a server that cannot listen"
    );
}

#[test]
fn a_sqlite_url_without_a_file_is_refused() {
    let (code, out, err) = finish(server(&[
        "--listen",
        "127.0.0.1:0",
        "--database-url",
        "sqlite://",
    ]));
    assert_ne!(code, Some(0));
    assert!(err.contains("names no file"), "{err}");
    assert!(!out.contains("connect to"));
}
