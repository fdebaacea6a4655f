package gamegraph;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

import inet.ipaddr.IPAddressString;

/**
 * Runs Neo4j Community embedded, with a Bolt connector, as a stand-alone server.
 *
 * <p>This replaces a Neo4j installation (or Docker) on developer machines and CI: the
 * jars come from Maven Central and loaders/neo4j_server.py starts this class in its own
 * JVM. Arguments, all optional, are {@code --key=value}:
 *
 * <ul>
 *   <li>{@code --home}: state folder; data/ and logs/ go below it (default: current folder)
 *   <li>{@code --bolt-host}, {@code --bolt-port}: Bolt address (default 127.0.0.1:7687)
 *   <li>{@code --password-file}: file whose first line is the password of user neo4j;
 *       without it the password is read from the environment variable NEO4J_PASSWORD, so
 *       that it never shows in the process list
 *   <li>{@code --pagecache}: page cache size such as 256m (default 256m)
 * </ul>
 *
 * <p>The heap is the JVM's own (-Xmx); transaction memory limits are derived from it.
 * Once Bolt answers and the password is set, it writes {@code <home>/ready} (holding the
 * Bolt URI) and prints a "ready" line; it then runs until SIGTERM, on which a shutdown
 * hook removes the marker and shuts the databases down cleanly.
 */
public final class Neo4jLauncher {
    private static final int MIN_PASSWORD_LENGTH = 8;
    private static final long BOLT_WAIT_MILLIS = 60_000;
    /**
     * The only procedures the server loads: what gamegraph's loader calls (db.awaitIndexes)
     * and the schema listings the console allows. Everything else (dbms.listConfig,
     * dbms.killConnection, db.clearQueryCaches, ...) does not exist on this server.
     */
    static final List<String> PROCEDURE_ALLOWLIST =
            List.of("db.awaitIndexes", "db.labels", "db.relationshipTypes", "db.propertyKeys");

    private static final Set<String> OPTIONS = Set.of("home", "bolt-host", "bolt-port", "password-file", "pagecache");

    private Neo4jLauncher() {}

    public static void main(String[] args) throws InterruptedException {
        try {
            Map<String, String> options = parseArgs(args);
            Path home = Path.of(options.getOrDefault("home", ".")).toAbsolutePath();
            String host = options.getOrDefault("bolt-host", "127.0.0.1");
            int port = Integer.parseInt(options.getOrDefault("bolt-port", "7687"));
            String password = readPassword(options.get("password-file"));
            long pageCache = ByteUnit.parse(options.getOrDefault("pagecache", "256m"));
            run(home, host, port, password, pageCache);
        } catch (Exception e) {
            System.err.println("gamegraph-neo4j: failed to start: " + causeChain(e));
            System.exit(1);
        }
        Thread.currentThread().join(); // serve until the shutdown hook has run
    }

    private static void run(Path home, String host, int port, String password, long pageCache)
            throws IOException {
        Path ready = home.resolve("ready");
        Files.deleteIfExists(ready);
        long heap = Runtime.getRuntime().maxMemory();
        System.out.printf(
                "gamegraph-neo4j: starting Neo4j (home %s, bolt %s:%d, heap %d MiB, page cache %d MiB)%n",
                home, host, port, heap >> 20, pageCache >> 20);

        // LOAD CSV can read nothing: no file URLs, an empty import folder, and no address
        // on the network (gamegraph loads over Bolt, never with LOAD CSV).
        Path imports = home.resolve("import");
        Files.createDirectories(imports);
        DatabaseManagementService service = new DatabaseManagementServiceBuilder(home)
                .setConfig(GraphDatabaseSettings.data_directory, home.resolve("data"))
                .setConfig(GraphDatabaseSettings.logs_directory, home.resolve("logs"))
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.allow_file_urls, false)
                .setConfig(GraphDatabaseSettings.load_csv_file_url_root, imports)
                .setConfig(GraphDatabaseInternalSettings.cypher_ip_blocklist,
                        List.of(new IPAddressString("0.0.0.0/0"), new IPAddressString("::/0")))
                .setConfig(GraphDatabaseSettings.procedure_allowlist, PROCEDURE_ALLOWLIST)
                // Netty idles 5 s per event loop group before it stops (10 s in all): a
                // local server with no clients left has no reason to wait that long.
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 1)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                // A statement past its timeout is ended when the transaction monitor next looks (every
                // 2 s by default); the console waits 1 s past a timeout before it calls a statement a
                // runaway and restarts the server, so the monitor looks every 100 ms.
                .setConfig(GraphDatabaseSettings.transaction_monitor_check_interval, java.time.Duration.ofMillis(100))
                // Leave room on the heap for the page cache's bookkeeping and Cypher itself.
                .setConfig(GraphDatabaseSettings.memory_transaction_global_max_size, heap * 7 / 10)
                .setConfig(GraphDatabaseSettings.memory_transaction_max_size, heap / 2)
                // Reloading graphs rewrites the store; keep transaction logs from piling up,
                // and smaller than the 256 MiB per database that Neo4j preallocates by default.
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "256M size")
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(64))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("gamegraph-neo4j: shutting down");
            try {
                Files.deleteIfExists(ready);
            } catch (IOException e) {
                System.err.println("gamegraph-neo4j: could not remove " + ready + ": " + e);
            }
            service.shutdown();
            System.out.println("gamegraph-neo4j: stopped");
        }, "gamegraph-neo4j-shutdown"));

        setPassword(service, password);
        waitForBolt(host, port);
        String uri = "bolt://" + host + ":" + port;
        Path tmp = home.resolve("ready.tmp");
        Files.writeString(tmp, uri + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("gamegraph-neo4j: ready at %s, %.1f s after the JVM started%n",
                uri, ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0);
    }

    /**
     * Makes the neo4j user's password the configured one, on every start, so that a
     * changed NEO4J_PASSWORD or password file takes effect and the first start needs no
     * "change the default password" step. Neo4j refuses to "change" a password to the one
     * it already has; that case only clears the change-required flag.
     */
    private static void setPassword(DatabaseManagementService service, String password) {
        var system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
            System.out.println("gamegraph-neo4j: password of user neo4j set");
        } catch (RuntimeException e) {
            if (!causeChain(e).contains("Old password and new password cannot be the same")) {
                throw e;
            }
            system.executeTransactionally("ALTER USER neo4j SET PASSWORD CHANGE NOT REQUIRED");
        }
    }

    /** Waits until the Bolt port completes a protocol handshake, as a driver would see it. */
    private static void waitForBolt(String host, int port) {
        long deadline = System.currentTimeMillis() + BOLT_WAIT_MILLIS;
        while (!boltAnswers(host, port)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("Bolt did not answer on " + host + ":" + port);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Bolt", e);
            }
        }
    }

    private static boolean boltAnswers(String host, int port) {
        // Magic preamble, then four version proposals: "5.4 down to 5.0", and three empty.
        byte[] handshake = {0x60, 0x60, (byte) 0xB0, 0x17, 0, 4, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(handshake);
            out.flush();
            byte[] agreed = socket.getInputStream().readNBytes(4);
            return agreed.length == 4 && agreed[3] == 5;
        } catch (IOException e) {
            return false;
        }
    }

    private static String readPassword(String passwordFile) throws IOException {
        String password = passwordFile != null
                ? Files.readString(Path.of(passwordFile), StandardCharsets.UTF_8).strip()
                : System.getenv("NEO4J_PASSWORD");
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("no password: pass --password-file or set NEO4J_PASSWORD");
        }
        if (password.length() < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException(
                    "the password must be at least " + MIN_PASSWORD_LENGTH + " characters long");
        }
        return password;
    }

    private static Map<String, String> parseArgs(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --key=value, got: " + arg);
            }
            if (!OPTIONS.contains(arg.substring(2, eq))) {
                throw new IllegalArgumentException("unknown option " + arg + "; known: " + OPTIONS);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return options;
    }

    /** Joins the messages of an exception and its causes: Neo4j wraps the useful one deep. */
    private static String causeChain(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (text.length() > 0) {
                text.append(" <- ");
            }
            text.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
        }
        return text.toString();
    }
}
