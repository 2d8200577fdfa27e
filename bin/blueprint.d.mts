/**
 * Types of bin/blueprint.mjs for tests/live-preview/.
 */

/** A blueprint step, as far as the tests read it. */
export interface BlueprintStep {
	step: string;
	[ key: string ]: unknown;
}

/** The blueprint, as far as the tests read it. */
export interface Blueprint {
	landingPage: string;
	login?: boolean;
	steps: BlueprintStep[];
	[ key: string ]: unknown;
}

export const BLUEPRINT_FILE: string;
export const LANDING_PAGE: string;
export const PLAN_PATH: string;

export function makeBlueprint(): Blueprint;
export function blueprintText(): string;
export function localBlueprint( blueprint: Blueprint, zipName: string ): Blueprint;
