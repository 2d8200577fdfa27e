/// <reference types="vite/client" />

interface ImportMetaEnv {
	/** The WordPress site to read when the address gives no `?site=`. */
	readonly VITE_CAIRN_SITE?: string;
	/** Further sites `?site=` may name (spaces or commas between them); no other site is read. */
	readonly VITE_CAIRN_SITES?: string;
	/** A public Mapbox token to use instead of the site's when the address gives no `?token=`. */
	readonly VITE_MAPBOX_TOKEN?: string;
}

interface ImportMeta {
	readonly env: ImportMetaEnv;
}
