/** Placeholder. */
package org.jdvm.bench;
