import { accessibilitySuite } from './a11y-suite';

accessibilitySuite('light');
