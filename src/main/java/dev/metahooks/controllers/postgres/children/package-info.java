/**
 * <b>Internal</b>: one builder per child kind, each rendering its objects whole from the plan's decisions.
 */
package dev.metahooks.controllers.postgres.children;
