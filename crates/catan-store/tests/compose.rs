//! `docker-compose.yml` and `Dockerfile` (repository root) agree with the server's
//! configuration: port 8080, `LISTEN=0.0.0.0:8080`, `DATABASE_URL` pointing at the
//! compose Postgres with its credentials, healthchecks, a named volume.

use serde_norway::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn repo_file(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn compose() -> Value {
    serde_norway::from_str(&repo_file("docker-compose.yml")).expect("docker-compose.yml is valid YAML")
}

/// A service's `environment`, in either the map or the `KEY=value` list form.
fn environment(service: &Value) -> BTreeMap<String, String> {
    match &service["environment"] {
        Value::Mapping(m) => m
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    other => panic!("unexpected environment value {other:?}"),
                };
                (k.as_str().unwrap().to_string(), v)
            })
            .collect(),
        Value::Sequence(list) => list
            .iter()
            .map(|item| {
                let (k, v) = item.as_str().unwrap().split_once('=').expect("KEY=value");
                (k.to_string(), v.to_string())
            })
            .collect(),
        other => panic!("environment missing or malformed: {other:?}"),
    }
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::Sequence(s) => s
            .iter()
            .map(|x| x.as_str().expect("string").to_string())
            .collect(),
        Value::String(s) => vec![s.clone()],
        other => panic!("expected a list: {other:?}"),
    }
}

#[test]
fn services_are_postgres_and_server() {
    let c = compose();
    let services = c["services"].as_mapping().expect("services");
    let mut names: Vec<_> = services.keys().map(|k| k.as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["postgres", "server"]);
}

#[test]
fn server_listens_on_8080_and_uses_the_compose_postgres() {
    let c = compose();
    let server = &c["services"]["server"];
    let env = environment(server);
    assert_eq!(env["LISTEN"], "0.0.0.0:8080");

    // DATABASE_URL = postgres://USER:PASSWORD@postgres:5432/DB, matching the database.
    let url = &env["DATABASE_URL"];
    let rest = url.strip_prefix("postgres://").expect("a postgres:// URL");
    let (userinfo, rest) = rest.split_once('@').expect("credentials in DATABASE_URL");
    let (user, password) = userinfo.split_once(':').expect("user:password");
    let (hostport, db) = rest.split_once('/').expect("a database name");
    assert_eq!(
        hostport, "postgres:5432",
        "DATABASE_URL must point at the postgres service"
    );
    let pg = environment(&c["services"]["postgres"]);
    assert_eq!(pg["POSTGRES_USER"], user);
    assert_eq!(pg["POSTGRES_PASSWORD"], password);
    assert_eq!(pg["POSTGRES_DB"], db.split('?').next().unwrap());

    let ports = strings(&server["ports"]);
    assert!(
        ports.iter().any(|p| p.trim_matches('"').ends_with(":8080")),
        "port 8080 published: {ports:?}"
    );
    assert_eq!(
        server["depends_on"]["postgres"]["condition"].as_str(),
        Some("service_healthy")
    );
    assert_eq!(server["build"]["context"].as_str(), Some("."));
    assert_eq!(server["build"]["dockerfile"].as_str(), Some("Dockerfile"));
}

#[test]
fn healthchecks_and_named_volume() {
    let c = compose();
    let server_check = strings(&c["services"]["server"]["healthcheck"]["test"]).join(" ");
    assert!(
        server_check.contains("http://127.0.0.1:8080/healthz"),
        "{server_check}"
    );
    let pg_check = strings(&c["services"]["postgres"]["healthcheck"]["test"]).join(" ");
    assert!(pg_check.contains("pg_isready"), "{pg_check}");

    let volumes = c["volumes"].as_mapping().expect("top-level volumes");
    let mounts = strings(&c["services"]["postgres"]["volumes"]);
    let data = mounts
        .iter()
        .find(|m| m.ends_with(":/var/lib/postgresql/data"))
        .expect("postgres data on a volume");
    let name = data.split(':').next().unwrap();
    assert!(
        volumes.contains_key(Value::String(name.to_string())),
        "{name} is a named volume"
    );
}

#[test]
fn dockerfile_builds_the_server_listening_on_8080() {
    let d = repo_file("Dockerfile");
    assert!(d.contains("--bin catan-server"), "builds the catan-server binary");
    assert!(d.contains("EXPOSE 8080"));
    assert!(d.contains("ENV LISTEN=0.0.0.0:8080"));
    assert!(d.contains("CMD [\"catan-server\"]"));
    // The compose healthcheck runs curl inside the image.
    assert!(d.contains(" curl"), "curl installed for the healthcheck");
}
