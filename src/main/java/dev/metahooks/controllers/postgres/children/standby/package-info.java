/**
 * <b>Internal</b>: a standby cluster's Spilo settings ({@code STANDBY_*}) and the source's credentials it takes over.
 */
package dev.metahooks.controllers.postgres.children.standby;
