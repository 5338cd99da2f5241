/**
 * <b>Internal</b>: the Jobs that act on a running cluster: users and databases, parameters (and standby promotion through them),
 * switchovers, restarts, major upgrade, volume resize, cleanup after deletion.
 */
package dev.metahooks.controllers.postgres.children.jobs;
