# shellcheck shell=bash
# A private MariaDB server on 127.0.0.1 for one run: sourced by bin/test-php.sh (PHPUnit) and
# bench/api/run.sh (the API benchmark). The caller defines log() and die().

# Finds the server, installer and client; sets MARIADBD, INSTALL_DB, CLIENT and MARIADB_USER_ARGS,
# or MARIADB_PROBLEM (and returns 1) when something is missing.
mariadb_find() {
	MARIADBD="$(command -v mariadbd || true)"
	[[ -n "$MARIADBD" ]] || MARIADBD="$(ls /usr/sbin/mariadbd /usr/sbin/mysqld 2>/dev/null | head -n 1 || true)"
	INSTALL_DB="$(command -v mariadb-install-db || command -v mysql_install_db || true)"
	CLIENT="$(command -v mariadb || command -v mysql || true)"
	MARIADB_PROBLEM=""
	if [[ -z "$MARIADBD" || ! -x "$MARIADBD" ]]; then
		MARIADB_PROBLEM="mariadbd not found (mariadb-server)"
	elif [[ -z "$INSTALL_DB" ]]; then
		MARIADB_PROBLEM="mariadb-install-db not found (mariadb-server)"
	elif [[ -z "$CLIENT" ]]; then
		MARIADB_PROBLEM="the mariadb client is not installed (mariadb-client)"
	fi
	# mariadbd refuses to run as root unless told to; CI runs as root.
	MARIADB_USER_ARGS=()
	[[ "$(id -u)" == 0 ]] && MARIADB_USER_ARGS=(--user=root)
	[[ -z "$MARIADB_PROBLEM" ]]
}

# Stops a server a killed run left on this data directory (its pid file is still there).
mariadb_stop_stale() { # pidfile datadir
	local pidfile="$1" data="$2" old_pid
	if [[ -f "$pidfile" ]]; then
		old_pid="$(cat "$pidfile" 2>/dev/null || true)"
		if [[ -n "$old_pid" ]] && kill -0 "$old_pid" 2>/dev/null &&
			grep -qa -- "$data" "/proc/$old_pid/cmdline" 2>/dev/null; then
			log "stopping a MariaDB left running by an earlier run (pid $old_pid)"
			kill "$old_pid" 2>/dev/null || true
			for _ in $(seq 1 150); do kill -0 "$old_pid" 2>/dev/null || break; sleep 0.1; done
			kill -9 "$old_pid" 2>/dev/null || true
		fi
		rm -f "$pidfile"
	fi
}

# Creates the data directory unless it holds one already.
mariadb_init() { # datadir logdir
	local data="$1" logdir="$2"
	[[ -d "$data/mysql" ]] && return 0
	log "initialising a MariaDB data directory in $data"
	rm -rf "$data"
	"$INSTALL_DB" --no-defaults --datadir="$data" "${MARIADB_USER_ARGS[@]}" --auth-root-authentication-method=socket \
		--skip-test-db --skip-name-resolve >"$logdir/install.log" 2>&1 ||
		{ tail -n 20 "$logdir/install.log" >&2; die "mariadb-install-db failed (log: $logdir/install.log)"; }
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Prints the first free port from $1 on (50 tries).
free_port() {
	local port="$1"
	for _ in $(seq 1 50); do
		port_in_use "$port" || { echo "$port"; return 0; }
		port=$((port + 1))
	done
	return 1
}

# Starts the server in the background with the caller's extra options and waits until it answers;
# sets MARIADB_PID. Durability is relaxed (nothing here must survive a crash).
mariadb_start() { # datadir socket pidfile errlog port timeout [server options...]
	local data="$1" socket="$2" pidfile="$3" errlog="$4" port="$5" timeout="$6"
	shift 6
	: >"$errlog"
	# A temporary folder of its own: every mariadbd deletes the #sql* files of its tmpdir when it
	# starts, so with a shared /tmp another test run's start broke this one's large GROUP BYs.
	local tmpdir
	tmpdir="$(dirname "$data")/tmp"
	mkdir -p "$tmpdir"
	"$MARIADBD" --no-defaults "${MARIADB_USER_ARGS[@]}" \
		--datadir="$data" --socket="$socket" --pid-file="$pidfile" --log-error="$errlog" --tmpdir="$tmpdir" \
		--bind-address=127.0.0.1 --port="$port" --skip-name-resolve --skip-log-bin \
		--character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
		--innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --sync-binlog=0 \
		--max-allowed-packet=64M "$@" \
		</dev/null >/dev/null 2>&1 9>&- &
	MARIADB_PID=$!
	log "starting MariaDB on 127.0.0.1:$port (pid $MARIADB_PID)"
	local deadline=$((SECONDS + timeout))
	until "$CLIENT" --no-defaults --socket="$socket" -uroot -e 'SELECT 1' >/dev/null 2>&1; do
		if ! kill -0 "$MARIADB_PID" 2>/dev/null; then
			tail -n 30 "$errlog" >&2 || true
			die "MariaDB exited while starting (log: $errlog)"
		fi
		if ((SECONDS >= deadline)); then
			tail -n 30 "$errlog" >&2 || true
			kill -9 "$MARIADB_PID" 2>/dev/null || true
			die "MariaDB was not ready within ${timeout}s (log: $errlog)"
		fi
		sleep 0.2
	done
}

# A fresh database and a user with every right on it, from 127.0.0.1 and the socket.
mariadb_create_db() { # socket name user password
	local socket="$1" name="$2" user="$3" password="$4"
	"$CLIENT" --no-defaults --socket="$socket" -uroot <<SQL || die "could not create the database $name and its user"
DROP DATABASE IF EXISTS \`$name\`;
CREATE DATABASE \`$name\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$user'@'127.0.0.1' IDENTIFIED BY '$password';
CREATE USER IF NOT EXISTS '$user'@'localhost' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON \`$name\`.* TO '$user'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$name\`.* TO '$user'@'localhost';
SQL
}
