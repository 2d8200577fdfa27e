/**
 * What jsdom lacks and WordPress's packages use at import time (core-data's sync layer encodes
 * text). Imported first by the editor's component tests.
 */
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign( globalThis, { TextDecoder, TextEncoder } );
