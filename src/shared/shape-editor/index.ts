/**
 * Drawing and editing a marker's shape (a route or an area) in the editor. The drawing library
 * loads on demand (draw-session.ts); what this entry adds to a bundle is the tools' UI.
 */
export { ShapeTools } from './shape-tools';
export type { ShapeToolsProps } from './shape-tools';
export {
	parseShapeText,
	readShape,
	shapeKind,
	MAX_VERTICES,
	type ShapeGeometry,
	type ShapeKind,
} from './geometry';
