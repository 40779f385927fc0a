/* The daemon's configuration keys (section "daemon"). */
#include <stddef.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/server.h"

#define K(name, type, field, lo, hi, dflt, env, help)                                      \
    {                                                                                      \
        "daemon", name, type, offsetof(cuzk_server_config, field), lo, hi, dflt, env, help \
    }
#define S(name, field, dflt, env, help) \
    K(name, CUZK_CFG_STR, field, 0, sizeof(((cuzk_server_config *)0)->field), dflt, env, help)

static const cuzk_config_key server_keys[] = {
    S("listen", listen, "unix:///run/cuzk/cuzk.sock", "CUZK_DAEMON_LISTEN",
      "gRPC address: unix:///PATH (a socket made mode 0600) or HOST:PORT (TCP, e.g. 127.0.0.1:9820)"),
    S("http_listen", http_listen, "", "CUZK_DAEMON_HTTP_LISTEN",
      "HTTP address of GET /metrics, /status and /trace?job=ID: HOST:PORT, PORT (127.0.0.1), 0.0.0.0:PORT (warned "
      "about); "
      "empty: off"),
    K("max_message_bytes", CUZK_CFG_U64, max_message_bytes, 1024, 1ull << 31, "268435456",
      "CUZK_DAEMON_MAX_MESSAGE_BYTES", "largest gRPC message taken or sent (Curio's client allows 256 MiB)"),
    K("max_calls", CUZK_CFG_UINT, max_calls, 1, 100000, "4096", "CUZK_DAEMON_MAX_CALLS",
      "calls at once of each class (LOW/NORMAL proofs; HIGH/CRITICAL; AwaitProof; "
      "Cancel/GetStatus/GetMetrics/GetTrace)"),
    K("max_connections", CUZK_CFG_UINT, max_connections, 4, 1000000, "1024", "CUZK_DAEMON_MAX_CONNECTIONS",
      "client connections at once; a new one replaces the one idle longest, or is refused when all have calls"),
    K("idle_connection_s", CUZK_CFG_UINT, idle_connection_s, 0, 86400, "600", "CUZK_DAEMON_IDLE_CONNECTION_S",
      "a connection without a call this long is asked to go (clients reconnect when they need to; 0: never)"),
    S("allow", allow, "127.0.0.0/8, ::1/128", "CUZK_DAEMON_ALLOW",
      "TCP listen: the client networks let in (CIDR, comma-separated; 0.0.0.0/0, ::/0: any); others closed at once"),
    S("tls_cert", tls_cert, "", "CUZK_DAEMON_TLS_CERT",
      "TCP listen: PEM certificate (chain) of the server; with tls_key, clients must speak TLS (empty: plaintext; "
      "Unix sockets stay plaintext)"),
    S("tls_key", tls_key, "", "CUZK_DAEMON_TLS_KEY", "TCP listen: PEM private key of tls_cert (no passphrase)"),
    S("tls_client_ca", tls_client_ca, "", "CUZK_DAEMON_TLS_CLIENT_CA",
      "TCP listen with TLS: PEM CA certificate(s); set, a client must present a certificate issued by one "
      "(empty: none asked)"),
    K("drain_grace_s", CUZK_CFG_UINT, drain_grace_s, 0, 86400, "60", "CUZK_DAEMON_DRAIN_GRACE_S",
      "on SIGTERM/SIGINT: seconds the jobs in flight may take to finish before they are cancelled"),
    K("test_kinds", CUZK_CFG_BOOL, test_kinds, 0, 1, "false", "CUZK_DAEMON_TEST_KINDS",
      "accept the test proof kind 100 (a built-in circuit named by vanilla_proof; for load and fault tests)"),
    K("test_synthetic", CUZK_CFG_BOOL, test_synthetic, 0, 1, "false", "CUZK_DAEMON_TEST_SYNTHETIC",
      "test kinds use synthetic parameters made on the GPU, porep:SIZE synthetic vanilla data (timing only: "
      "such proofs do not verify)"),
    K("test_params", CUZK_CFG_BOOL, test_params, 0, 1, "false", "CUZK_DAEMON_TEST_PARAMS",
      "the official proof kinds use the test parameters `cuzk demo` / `cuzk setup --into-cache` make "
      "(cuzk-test-*.params/.vk in param_dir), not the official files; the start line, /status and the job log say "
      "so (proofs for tests: they do not verify on chain)"),
    S("param_dir", param_dir, CUZK_PARAM_DIR_DEFAULT, "FIL_PROOFS_PARAMETER_CACHE",
      "folder of the official .params and .vk files, looked up by their official names"),
    S("cache_dir", cache_dir, "", "CUZK_DAEMON_CACHE_DIR",
      "folder where precompiled circuits are kept across restarts (empty: recorded in memory at each start)"),
    S("log_file", log_file, "", "CUZK_DAEMON_LOG_FILE",
      "file of the job log, one JSON line per ended job with its timeline (empty: standard error); SIGHUP reopens it"),
};

const cuzk_config_key *cuzk_server_config_table(size_t *n)
{
    *n = sizeof server_keys / sizeof server_keys[0];
    return server_keys;
}

void cuzk_server_config_default(cuzk_server_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    size_t n;
    const cuzk_config_key *k = cuzk_server_config_table(&n);
    cuzk_config_defaults(k, n, cfg);
}
