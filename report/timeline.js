// The timeline page's script, embedded into every timeline.html at build time: tooltips from the
// marks' title elements, zoom (buttons, ctrl+wheel) that re-lays out every mark from its data-t0/t1,
// the axis redrawn per zoom, and the jumps to violations.
(function(){
  const plot=document.getElementById('plot'), scroll=document.getElementById('scroll'), tip=document.getElementById('tip');
  const END=+plot.dataset.end, PAD=+plot.dataset.pad, AXIS=+plot.dataset.axis, NS=plot.namespaceURI;
  let scale=1, fitted=true;  // fitted: the whole run fills the view (kept so on resizes)
  const X=t=>PAD+t*scale;
  for(const t of Array.from(document.querySelectorAll('svg title'))){
    t.parentNode.setAttribute('data-tip',t.textContent); t.remove();
  }
  const positioned=Array.from(plot.querySelectorAll('[data-t0]')).filter(e=>!e.closest('#axis,#grid'));
  function el(tag,attrs,text){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e;}
  function niceStep(){const raw=90/scale,mag=Math.pow(10,Math.floor(Math.log10(raw)));for(const m of [1,2,5])if(m*mag>=raw)return Math.max(1,Math.round(m*mag));return Math.max(1,Math.round(10*mag));}
  function drawAxis(){
    const axis=document.getElementById('axis'),grid=document.getElementById('grid'),H=+plot.getAttribute('height');
    axis.replaceChildren(el('rect',{x:0,y:0,width:X(END)+PAD,height:AXIS-4,'class':'axis-bg'}));grid.replaceChildren();
    const step=niceStep();
    for(let t=0;t<=END;t+=step){
      grid.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS,y2:H,'class':'grid'}));
      axis.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS-10,y2:AXIS-4,'class':'tick'}));
      axis.appendChild(el('text',{x:X(t),y:AXIS-14,'class':'tick-label'},String(t)));
    }
  }
  function layout(){
    for(const e of positioned){
      const x0=X(+e.dataset.t0),dx=+(e.dataset.dx||0);
      switch(e.tagName){
        case 'rect':{const w=Math.max(+(e.dataset.minw||1),X(+e.dataset.t1)-x0);e.setAttribute('x',x0);e.setAttribute('width',w);break;}
        case 'line':e.setAttribute('x1',x0);e.setAttribute('x2',x0);break;
        case 'text':e.setAttribute('x',x0+dx);break;
        case 'g':e.setAttribute('transform','translate('+x0+','+e.dataset.y+')');break;
      }
    }
    plot.setAttribute('width',X(END)+PAD);
    drawAxis();
  }
  const fitScale=()=>Math.max(1e-6,(scroll.clientWidth-2*PAD)/Math.max(END,1));
  function zoomTo(s,anchorPx){
    const old=scale;anchorPx=anchorPx===undefined?scroll.clientWidth/2:anchorPx;
    const t=(scroll.scrollLeft+anchorPx-PAD)/old;
    scale=Math.min(50,Math.max(fitScale(),s));fitted=scale===fitScale();layout();
    scroll.scrollLeft=PAD+t*scale-anchorPx;
  }
  document.getElementById('zoom-in').onclick=()=>zoomTo(scale*2);
  document.getElementById('zoom-out').onclick=()=>zoomTo(scale/2);
  function fit(){scale=fitScale();fitted=true;layout();scroll.scrollLeft=0;}
  document.getElementById('zoom-fit').onclick=fit;
  window.addEventListener('resize',()=>{if(fitted)fit();});
  scroll.addEventListener('wheel',ev=>{if(!ev.ctrlKey)return;ev.preventDefault();
    zoomTo(scale*(ev.deltaY<0?1.25:0.8),ev.clientX-scroll.getBoundingClientRect().left);},{passive:false});
  function jump(k){
    // Where two holds overlap, that stretch is the violation; otherwise the witnesses' span.
    let marks=Array.from(plot.querySelectorAll('.overlap[data-violation="'+k+'"]'));
    if(!marks.length)marks=Array.from(plot.querySelectorAll('[data-violation="'+k+'"][data-t0]'));
    if(!marks.length)return;
    const ts=marks.map(m=>+m.dataset.t0);
    for(const m of marks)if(m.dataset.t1!==undefined)ts.push(+m.dataset.t1);
    const lo=Math.min(...ts),hi=Math.max(...ts),span=Math.max(hi-lo,1);
    scale=Math.min(50,Math.max(fitScale(),(scroll.clientWidth-2*PAD)*0.8/span));fitted=false;layout();
    scroll.scrollLeft=X(lo)-(scroll.clientWidth-(X(hi)-X(lo)))/2;
    scroll.scrollIntoView({block:'nearest'});
    for(const m of plot.querySelectorAll('.witness[data-violation="'+k+'"]')){m.classList.remove('flash');void m.getBBox();m.classList.add('flash');}
  }
  for(const a of document.querySelectorAll('[data-jump]'))a.addEventListener('click',ev=>{ev.preventDefault();jump(+a.dataset.jump);});
  document.addEventListener('mousemove',ev=>{
    const t=ev.target.closest&&ev.target.closest('[data-tip]');
    if(!t){tip.style.display='none';return;}
    tip.textContent=t.getAttribute('data-tip');tip.style.display='block';
    const w=tip.offsetWidth,h=tip.offsetHeight;
    tip.style.left=Math.min(ev.clientX+14,window.innerWidth-w-8)+'px';
    tip.style.top=(ev.clientY+16+h>window.innerHeight?ev.clientY-h-10:ev.clientY+16)+'px';
  });
  fit();
  if(location.hash==='#first-violation')jump(0);
})();
