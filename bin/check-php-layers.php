<?php
/**
 * Keeps the folders of plugin/ in layers: run by bin/lint-php.sh (npm run lint:php).
 *
 * Builds the graph of folders from the code of plugin/ (`use Cairn\Maps\…` lines and qualified or
 * fully qualified names, resolved as PHP resolves them; comments and strings do not count) and
 * fails when folders form a cycle, naming it with the file and class behind each step, or when a
 * folder uses a folder that is not in a lower layer below. A declared order rather than only "no
 * cycle": it says where each folder belongs, catches a dependency upwards as soon as it is written
 * (not only once a second one closes a cycle), and a new folder must be given its place.
 *
 * Usage: php bin/check-php-layers.php [plugin folder]. Exit status 0 when the layers hold, 1 when
 * not, 2 on a usage error.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line tool, never a web page.

// phpcs:disable WordPress.WP.AlternativeFunctions, WordPress.Security.EscapeOutput.OutputNotEscaped -- a command-line tool outside WordPress.

/**
 * The layers, lowest first. A folder may use only folders of lower layers (never one of its own
 * layer, nor one above). `(root)` is plugin/ itself: Plugin.php and Uninstaller.php, which compose
 * everything and are used by nothing.
 */
const CAIRN_MAPS_LAYERS = array(
	// Shared by every folder: limits.json, version tokens, the REST namespace, small interfaces.
	array( 'Support' ),
	// The marker post type, its storage and version.
	array( 'Markers' ),
	// What builds on markers: their groups; places of other post types.
	array( 'Groups', 'Content' ),
	// The owner's settings (they configure the domains below); the GeoJSON feeds; the place index.
	array( 'Settings', 'Feed', 'Index' ),
	// Address search; the block (it reads the settings, markers, groups, places and feeds).
	array( 'Geocoding', 'Blocks' ),
	// Import and export, data upgrades, script translations.
	array( 'Import_Export', 'Upgrade', 'I18n' ),
	// The cairn/v1 routes and the REST fields (they serve blocks, feeds and imports); the WP-CLI commands.
	array( 'Rest', 'Cli' ),
	// The composition root (Plugin.php) and the uninstaller.
	array( '(root)' ),
);

const CAIRN_MAPS_PREFIX = 'Cairn\\Maps\\';

/**
 * The folder a class of the plugin's namespace lives in, or null for other namespaces.
 *
 * @param string              $name    Fully qualified name, without the leading backslash.
 * @param array<string, bool> $folders The folders of plugin/ (`use Cairn\Maps\Markers;` imports one).
 */
function cairn_maps_folder_of_class( string $name, array $folders ): ?string {
	if ( 0 !== strncasecmp( $name, CAIRN_MAPS_PREFIX, strlen( CAIRN_MAPS_PREFIX ) ) ) {
		return null;
	}
	$parts = explode( '\\', substr( $name, strlen( CAIRN_MAPS_PREFIX ) ) );
	if ( 'tests' === strtolower( $parts[0] ) ) {
		return null;
	}
	return count( $parts ) > 1 || isset( $folders[ $parts[0] ] ) ? $parts[0] : '(root)';
}

/**
 * The names of the plugin's namespace a file refers to, resolved as PHP resolves them.
 *
 * @param string $code PHP source.
 * @return list<array{name: string, line: int}>
 */
function cairn_maps_referenced_names( string $code ): array {
	$tokens    = token_get_all( $code );
	$count     = count( $tokens );
	$namespace = '';
	$aliases   = array(); // Lower-case alias => fully qualified class name.
	$names     = array();
	$depth     = 0; // Braces: top-level `use` imports; `use` inside a class is a trait.
	$previous  = null; // The previous significant token.
	for ( $i = 0; $i < $count; $i++ ) {
		$token = $tokens[ $i ];
		if ( is_array( $token ) && in_array( $token[0], array( T_WHITESPACE, T_COMMENT, T_DOC_COMMENT ), true ) ) {
			continue;
		}
		$kind = is_array( $token ) ? $token[0] : $token;
		$text = is_array( $token ) ? $token[1] : $token;
		$line = is_array( $token ) ? $token[2] : 0;
		if ( '{' === $kind || T_CURLY_OPEN === $kind || T_DOLLAR_OPEN_CURLY_BRACES === $kind ) {
			++$depth;
		} elseif ( '}' === $kind ) {
			--$depth;
		} elseif ( T_NAMESPACE === $kind && ! ( is_array( $tokens[ $i + 1 ] ?? null ) && T_NS_SEPARATOR === $tokens[ $i + 1 ][0] ) ) {
			$namespace = '';
			++$i;
			while ( $i < $count && ';' !== $tokens[ $i ] && '{' !== $tokens[ $i ] ) {
				if ( is_array( $tokens[ $i ] ) && in_array( $tokens[ $i ][0], array( T_STRING, T_NAME_QUALIFIED ), true ) ) {
					$namespace = $tokens[ $i ][1];
				}
				++$i;
			}
			if ( '{' === ( $tokens[ $i ] ?? null ) ) {
				++$depth;
			}
			$aliases = array();
		} elseif ( T_USE === $kind && 0 === $depth && ')' !== $previous ) {
			// An import of classes (single, several, aliased or grouped); not of functions or constants.
			$statement = '';
			++$i;
			while ( $i < $count && ';' !== $tokens[ $i ] ) {
				$statement .= is_array( $tokens[ $i ] ) ? $tokens[ $i ][1] : $tokens[ $i ];
				++$i;
			}
			$statement = trim( preg_replace( '/\s+/', ' ', $statement ) );
			if ( preg_match( '/^(function|const)\b/i', $statement ) ) {
				continue;
			}
			$imports = array();
			if ( preg_match( '/^\\\\?([\w\\\\]+)\\\\\{(.*)\}$/', $statement, $group ) ) {
				foreach ( explode( ',', $group[2] ) as $part ) {
					$imports[] = $group[1] . '\\' . trim( $part );
				}
			} else {
				$imports = array_map( 'trim', explode( ',', $statement ) );
			}
			foreach ( $imports as $import ) {
				$pieces = preg_split( '/\s+as\s+/i', ltrim( $import, '\\' ) );
				$class  = trim( $pieces[0] );
				$alias  = isset( $pieces[1] ) ? trim( $pieces[1] ) : substr( strrchr( '\\' . $class, '\\' ), 1 );

				$aliases[ strtolower( $alias ) ] = $class;
				$names[]                         = array(
					'name' => $class,
					'line' => $line,
				);
			}
		} elseif ( T_NAME_FULLY_QUALIFIED === $kind ) {
			$names[] = array(
				'name' => ltrim( $text, '\\' ),
				'line' => $line,
			);
		} elseif ( T_NAME_RELATIVE === $kind ) {
			$names[] = array(
				'name' => ltrim( $namespace . '\\' . substr( $text, strlen( 'namespace\\' ) ), '\\' ),
				'line' => $line,
			);
		} elseif ( T_NAME_QUALIFIED === $kind ) {
			$first   = strtolower( strstr( $text, '\\', true ) );
			$names[] = array(
				'name' => isset( $aliases[ $first ] ) ? $aliases[ $first ] . strstr( $text, '\\' ) : ltrim( $namespace . '\\' . $text, '\\' ),
				'line' => $line,
			);
		} elseif ( T_STRING === $kind && isset( $aliases[ strtolower( $text ) ] )
			&& ! in_array( $previous, array( T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_CONST, T_CLASS, T_INTERFACE, T_TRAIT, T_ENUM ), true ) ) {
			$names[] = array(
				'name' => $aliases[ strtolower( $text ) ],
				'line' => $line,
			);
		}
		$previous = $kind;
	}
	return $names;
}

/**
 * The folder graph: folder => used folder => the first evidence (file, line, class).
 *
 * @param string $root The plugin/ folder.
 * @return array{0: list<string>, 1: array<string, array<string, array{file: string, line: int, class: string}>>}
 */
function cairn_maps_folder_graph( string $root ): array {
	$folders = array();
	$graph   = array();
	$files   = new RecursiveIteratorIterator( new RecursiveDirectoryIterator( $root, FilesystemIterator::SKIP_DOTS ) );
	$paths   = array();
	foreach ( $files as $file ) {
		if ( 'php' === strtolower( $file->getExtension() ) ) {
			$paths[] = str_replace( '\\', '/', substr( $file->getPathname(), strlen( $root ) + 1 ) );
		}
	}
	sort( $paths );
	foreach ( $paths as $relative ) {
		$folders[ str_contains( $relative, '/' ) ? strstr( $relative, '/', true ) : '(root)' ] = true;
	}
	foreach ( $paths as $relative ) {
		$folder = str_contains( $relative, '/' ) ? strstr( $relative, '/', true ) : '(root)';
		foreach ( cairn_maps_referenced_names( (string) file_get_contents( $root . '/' . $relative ) ) as $reference ) {
			$target = cairn_maps_folder_of_class( $reference['name'], $folders );
			if ( null === $target || $target === $folder || isset( $graph[ $folder ][ $target ] ) ) {
				continue;
			}
			$graph[ $folder ][ $target ] = array(
				'file'  => 'plugin/' . $relative,
				'line'  => $reference['line'],
				'class' => $reference['name'],
			);
		}
	}
	return array( array_keys( $folders ), $graph );
}

/**
 * The cycles of the graph: for each group of folders that reach one another (a strongly connected
 * component of more than one folder), its folders and one shortest cycle through the first of them.
 *
 * @param array<string, array<string, mixed>> $graph Folder => used folders.
 * @return list<array{folders: list<string>, cycle: list<string>}> Each cycle as folders, the first
 *         repeated at the end.
 */
function cairn_maps_cycles( array $graph ): array {
	$nodes = array_keys( $graph );
	foreach ( $graph as $targets ) {
		$nodes = array_merge( $nodes, array_keys( $targets ) );
	}
	$nodes = array_values( array_unique( $nodes ) );
	sort( $nodes );
	// Two folders share a component when each reaches the other.
	$reach = array();
	foreach ( $nodes as $node ) {
		$reach[ $node ] = array();
		$queue          = array( $node );
		while ( array() !== $queue ) {
			foreach ( array_keys( $graph[ array_shift( $queue ) ] ?? array() ) as $next ) {
				if ( ! isset( $reach[ $node ][ $next ] ) ) {
					$reach[ $node ][ $next ] = true;
					$queue[]                 = $next;
				}
			}
		}
	}
	$cycles = array();
	$done   = array();
	foreach ( $nodes as $start ) {
		if ( isset( $done[ $start ] ) || ! isset( $reach[ $start ][ $start ] ) ) {
			continue;
		}
		$component = array_values( array_filter( $nodes, static fn( $node ) => isset( $reach[ $start ][ $node ], $reach[ $node ][ $start ] ) ) );
		foreach ( $component as $node ) {
			$done[ $node ] = true;
		}
		// Breadth-first from $start back to $start: the shortest cycle through it.
		$parent = array();
		$queue  = array( $start );
		while ( array() !== $queue && ! isset( $parent[ $start ] ) ) {
			$node = array_shift( $queue );
			foreach ( array_keys( $graph[ $node ] ?? array() ) as $next ) {
				if ( ! isset( $parent[ $next ] ) ) {
					$parent[ $next ] = $node;
					$queue[]         = $next;
				}
			}
		}
		$cycle = array( $start );
		for ( $node = $parent[ $start ]; $node !== $start; $node = $parent[ $node ] ) {
			array_unshift( $cycle, $node );
		}
		array_unshift( $cycle, $start );
		$cycles[] = array(
			'folders' => $component,
			'cycle'   => $cycle,
		);
	}
	return $cycles;
}

/**
 * Checks plugin/ and prints what is wrong.
 *
 * @param string $root The plugin/ folder.
 * @return int Exit status.
 */
function cairn_maps_check_layers( string $root ): int {
	if ( ! is_dir( $root ) ) {
		fwrite( STDERR, "check-php-layers: no folder $root\n" );
		return 2;
	}
	list( $folders, $graph ) = cairn_maps_folder_graph( $root );
	$layer_of                = array();
	foreach ( CAIRN_MAPS_LAYERS as $index => $layer ) {
		foreach ( $layer as $folder ) {
			$layer_of[ $folder ] = $index;
		}
	}
	$problems = array();
	foreach ( $folders as $folder ) {
		if ( ! isset( $layer_of[ $folder ] ) ) {
			$problems[] = "plugin/$folder/ is in no layer: give it its place in CAIRN_MAPS_LAYERS (bin/check-php-layers.php).";
		}
	}
	$describe = static function ( string $from, string $to ) use ( $graph ): string {
		$edge = $graph[ $from ][ $to ];
		return sprintf( '%s → %s (%s:%d uses %s)', $from, $to, $edge['file'], $edge['line'], $edge['class'] );
	};
	foreach ( cairn_maps_cycles( $graph ) as $found ) {
		$cycle = $found['cycle'];
		$steps = array();
		$last  = count( $cycle ) - 1;
		for ( $i = 0; $i < $last; $i++ ) {
			$steps[] = '    ' . $describe( $cycle[ $i ], $cycle[ $i + 1 ] );
		}
		$problems[] = 'Folders form a cycle: ' . implode( ' → ', $cycle ) . "\n" . implode( "\n", $steps )
			. ( count( $found['folders'] ) + 1 > count( $cycle ) ? "\n    (and more cycles among " . implode( ', ', $found['folders'] ) . ')' : '' );
	}
	foreach ( $graph as $from => $targets ) {
		foreach ( array_keys( $targets ) as $to ) {
			if ( ! isset( $layer_of[ $from ], $layer_of[ $to ] ) || $layer_of[ $to ] < $layer_of[ $from ] ) {
				continue;
			}
			$where      = $layer_of[ $to ] === $layer_of[ $from ] ? 'in its own layer' : 'in a layer above it';
			$problems[] = sprintf( '%s uses %s, %s: %s', $from, $to, $where, $describe( $from, $to ) );
		}
	}
	if ( array() === $problems ) {
		echo 'check-php-layers: ' . count( $folders ) . " folders of plugin/, no cycle, every use points to a lower layer.\n";
		return 0;
	}
	fwrite( STDERR, "check-php-layers: the folders of plugin/ must stay in layers (lowest first):\n" );
	foreach ( CAIRN_MAPS_LAYERS as $index => $layer ) {
		fwrite( STDERR, sprintf( "  %d. %s\n", $index + 1, implode( ', ', $layer ) ) );
	}
	fwrite( STDERR, "Move the class where it belongs, or pass the value in from Plugin.php (the composition root).\n\n" );
	fwrite( STDERR, implode( "\n", $problems ) . "\n" );
	return 1;
}

exit( cairn_maps_check_layers( rtrim( $argv[1] ?? dirname( __DIR__ ) . '/plugin', '/' ) ) );
