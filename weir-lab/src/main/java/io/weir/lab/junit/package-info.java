/**
 * {@code @WeirCrashMatrix}: a JUnit 5 extension that runs a user's job through the seed's crash
 * points as real processes and fails the test on any lost or duplicated record.
 */
package io.weir.lab.junit;
