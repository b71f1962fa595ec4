/**
 * What every development server shares: free loopback ports, the state file that lets another
 * process find a running server, stopping a process politely or with SIGKILL, other signals
 * (SIGSTOP, SIGCONT, SIGINT), and the tail of a log for error details.
 */
package io.weir.devservers.process;
