/**
 * Files that survive a crash or a power cut: replaced whole or not at all, their directory entries
 * forced to disk. Used by the checkpoint storage and the file sink, and by the pid and state files
 * of the processes that the command line and the development servers start.
 */
package io.weir.files;
