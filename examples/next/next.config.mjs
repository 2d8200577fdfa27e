import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Next.js for the Cairn Maps example. Nothing special is needed for @cairn-maps/map: its React
 * entry carries 'use client', its `.` entry is safe on the server, and mapbox-gl is imported by the
 * package only when a map starts in the browser.
 *
 * @type {import('next').NextConfig}
 */
const nextConfig = {
	reactStrictMode: true,
	poweredByHeader: false,
	// This folder sits inside the plugin's repository, whose root has its own lock file: the files
	// a server needs are traced from here, as in an app of its own.
	outputFileTracingRoot: path.dirname( fileURLToPath( import.meta.url ) ),
	// The repository lints the example with its own ESLint set-up.
	eslint: { ignoreDuringBuilds: true },
};

export default nextConfig;
