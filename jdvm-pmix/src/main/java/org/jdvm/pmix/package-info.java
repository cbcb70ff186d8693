/** Placeholder. */
package org.jdvm.pmix;
