/**
 * The root layout: the stylesheets of both map engines (mapbox-gl, maplibre-gl) and of the maps, and a header.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';

import 'mapbox-gl/dist/mapbox-gl.css';
import 'maplibre-gl/dist/maplibre-gl.css';
import '@cairn-maps/map/style.css';
import './globals.css';

export const metadata: Metadata = {
	title: 'Cairn Maps — a Next.js front end',
};

export default function RootLayout( { children }: { children: ReactNode } ) {
	return (
		<html lang="en">
			<body>
				<header className="app-header">
					<Link href="/">Cairn Maps, Next.js</Link>
				</header>
				<main className="app-main">{ children }</main>
			</body>
		</html>
	);
}
