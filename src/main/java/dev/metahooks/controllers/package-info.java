/**
 * <b>Internal</b>: not part of the public API; it may change in any release. The built-in controllers are served through {@link dev.metahooks.BuiltInControllers}.
 */
package dev.metahooks.controllers;
