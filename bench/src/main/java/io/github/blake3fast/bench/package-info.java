/** JMH benchmarks of blake3-fast against commons-codec, Bouncy Castle and the JDK's SHA-256. */
package io.github.blake3fast.bench;
