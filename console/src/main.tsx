import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles/console.css';
import { App } from './app/app.js';

render(<App />, document.getElementById('app')!);
