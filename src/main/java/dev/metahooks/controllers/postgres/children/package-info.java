/**
 * <b>Internal</b>: one builder per child kind, each rendering its objects whole from the plan's decisions, in rooms by
 * feature. This package holds what the rooms share: the Job skeleton, pod placement and security, the API token in
 * one container, and the Patroni ServiceAccount, Role and RoleBinding with their rules. Rooms, lowest first:
 * {@code backup}, {@code standby}, {@code pod}, {@code access}, then {@code jobs}, {@code network} and
 * {@code pooler}; each uses only this package and the rooms before it.
 */
package dev.metahooks.controllers.postgres.children;
