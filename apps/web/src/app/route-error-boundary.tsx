import { Component, type ReactNode } from 'react';
import type { Location } from 'react-router';

interface Props {
  location: Location;
  children: ReactNode;
}

interface State {
  location: Location;
  failed: boolean;
  error: unknown;
}

const grey = 'rgba(200,200,200, 0.5)';

/**
 * An error while rendering a page (a page's code that failed to download, say) shows React
 * Router's default error screen, as the data router did, instead of leaving an empty window.
 * The next navigation clears it.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { location: this.props.location, failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { location: props.location, failed: false, error: undefined };
  }

  override componentDidCatch(error: unknown) {
    console.error('A page failed to render', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const { error } = this.state;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    const stack = error instanceof Error ? error.stack : null;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{message}</h3>
        {stack ? <pre style={{ padding: '0.5rem', backgroundColor: grey }}>{stack}</pre> : null}
      </>
    );
  }
}
