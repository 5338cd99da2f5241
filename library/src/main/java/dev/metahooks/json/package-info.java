/**
 * <b>Internal</b>: not part of the public API; it may change in any release.
 */
package dev.metahooks.json;
