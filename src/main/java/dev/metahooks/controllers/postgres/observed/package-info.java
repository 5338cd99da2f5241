/**
 * <b>Internal</b>: what Metacontroller observed of a cluster: its children, pods and related objects, and how to read
 * them.
 */
package dev.metahooks.controllers.postgres.observed;
