use anyhow::Context;
use clap::Parser;

/// mimalloc, not glibc's malloc: a broadcast allocates and frees many small buffers on
/// both worker threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = catan_server::Config::parse();
    catan_server::observe::init_logging(config.log_format);
    let (listen, backlog) = (config.listen, config.listen_backlog);
    // The store first: the "connect to" line below promises a server that works.
    let server = catan_server::Server::open(config).await?;
    let listener =
        catan_server::bind(listen, backlog).with_context(|| format!("cannot listen on {listen}"))?;
    let addr = listener.local_addr()?;
    println!("catan-server: connect to ws://{addr}/ws  (create a room: POST http://{addr}/api/rooms)");
    server.run(listener, catan_server::shutdown_signal()).await
}
