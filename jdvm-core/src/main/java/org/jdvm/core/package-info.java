/** Placeholder. */
package org.jdvm.core;
