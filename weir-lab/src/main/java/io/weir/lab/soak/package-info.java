/**
 * The soak ({@code weir lab --soak}): a job under continuous input killed again and again — from
 * outside at a random moment, at a failpoint, by a savepoint stop, or by killing the leading job
 * manager of a highly available cluster — with the committed output counted after every round.
 */
package io.weir.lab.soak;
