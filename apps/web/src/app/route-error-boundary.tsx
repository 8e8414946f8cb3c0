import { Component, type ReactNode } from 'react';
import type { Location } from 'react-router';
import { retryFailedLoads } from './lazy-page';
import { isChunkLoadError, reloadIfRedeployed } from './new-deploy';
import { PageLoadError } from './page-load-error';

interface Props {
  location: Location;
  children: ReactNode;
}

interface State {
  location: Location;
  failed: boolean;
  error: unknown;
  /** Bumped by Try again: the page renders anew (and its code downloads again). */
  attempt: number;
}

/**
 * An error while rendering a page (a page's code that failed to download, say) shows the portal's
 * error screen with Try again, instead of an empty window. Try again and the next navigation
 * download a failed page's code again; when a deploy replaced that code, the page reloads once.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { location: this.props.location, failed: false, error: undefined, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { location: props.location, failed: false, error: undefined };
  }

  override componentDidCatch(error: unknown) {
    console.error('A page failed to render', error);
    if (isChunkLoadError(error)) void reloadIfRedeployed();
  }

  retry = () => {
    retryFailedLoads();
    this.setState((s) => ({ failed: false, error: undefined, attempt: s.attempt + 1 }));
  };

  override render() {
    if (!this.state.failed) return <RenderRound key={this.state.attempt}>{this.props.children}</RenderRound>;
    return <PageLoadError key={this.state.attempt} network={isChunkLoadError(this.state.error)} onRetry={this.retry} />;
  }
}

/** Gives each attempt its own subtree, so Try again mounts the page afresh. */
function RenderRound({ children }: { children: ReactNode }) {
  return children;
}
