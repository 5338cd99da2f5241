/**
 * <b>Internal</b>: the parent's status and its conditions, from the plan and the observed cluster.
 */
package dev.metahooks.controllers.postgres.status;
