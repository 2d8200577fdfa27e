/**
 * Types of bin/demo-shapes.mjs for the unit test that checks the demo's routes and areas.
 */

/** A GeoJSON line or area as the demo stores it. */
export interface DemoGeometry {
	type: 'LineString' | 'Polygon';
	coordinates: number[][] | number[][][];
}

/** What bin/demo-shapes.json holds. */
export interface DemoShapes {
	description: string;
	group: {
		slug: string;
		name: string;
		description: string;
		meta: {
			cairn_color: string;
			cairn_line_color: string;
			cairn_line_width: number;
			cairn_fill_opacity: number;
		};
	};
	shapes: Array< {
		title: string;
		place: string;
		text: string;
		geometry: DemoGeometry;
	} >;
}

/** The group the shapes are in, with its line looks. */
export const DEMO_SHAPES_GROUP: DemoShapes[ 'group' ];

/** The demo's shapes, built from their waypoints. */
export function buildDemoShapes(): DemoShapes;

/** The text of bin/demo-shapes.json. */
export function demoShapesJson(): string;
