use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    let config = catan_server::Config::parse();
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    println!("catan-server: connect to ws://{addr}/ws  (create a room: POST http://{addr}/api/rooms)");
    catan_server::serve(config, listener, catan_server::shutdown_signal()).await
}
